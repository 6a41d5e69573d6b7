import { describe, expect, it } from 'vitest';
import { SECOND_AUTHORIZE_CHANNEL_CODES, shouldOpenSecondAuthorize } from './second-authorize';

describe('second authorisation (spec §4)', () => {
  const facts = { companyType: 'KAInstitution', adChannelCode: 'demo-skin8', alreadyOpened: false };

  it('opens for KA or Region institutions on one of the three codes', () => {
    expect(SECOND_AUTHORIZE_CHANNEL_CODES).toHaveLength(3);
    for (const code of SECOND_AUTHORIZE_CHANNEL_CODES) {
      expect(shouldOpenSecondAuthorize({ ...facts, adChannelCode: code })).toBe(true);
      expect(
        shouldOpenSecondAuthorize({ ...facts, adChannelCode: code, companyType: 'RegionInstitution' }),
      ).toBe(true);
    }
  });

  it('not on other channels, other company types, without a match, or a second time', () => {
    expect(shouldOpenSecondAuthorize({ ...facts, adChannelCode: 'demo' })).toBe(false);
    expect(shouldOpenSecondAuthorize({ ...facts, adChannelCode: '' })).toBe(false);
    expect(shouldOpenSecondAuthorize({ ...facts, companyType: 'Other' })).toBe(false);
    expect(shouldOpenSecondAuthorize({ ...facts, companyType: null })).toBe(false);
    expect(shouldOpenSecondAuthorize({ ...facts, alreadyOpened: true })).toBe(false);
  });

  it('takes another code list', () => {
    expect(shouldOpenSecondAuthorize({ ...facts, adChannelCode: 'x' }, ['x'])).toBe(true);
  });
});
