import { describe, expect, it } from 'vitest';
import { draftKey, draftKeysOfOthers } from './form-drafts';

describe('form drafts on the device are per person (issue 16.3)', () => {
  const keys = [
    draftKey('7', 'demo'),
    draftKey('7', ''),
    draftKey('71', 'demo'),
    draftKey('8', 'demo'),
    'TOKEN',
  ];

  it('one key per person and channel', () => {
    expect(draftKey('7', 'demo')).toBe('FORM_DRAFT:7:demo');
    expect(draftKey('7', '')).toBe('FORM_DRAFT:7:-');
  });

  it("another person's login finds none of the earlier person's drafts", () => {
    expect(draftKeysOfOthers(keys, '7')).toEqual(['FORM_DRAFT:71:demo', 'FORM_DRAFT:8:demo']);
    expect(draftKeysOfOthers(keys, '8')).toEqual([
      'FORM_DRAFT:7:demo',
      'FORM_DRAFT:7:-',
      'FORM_DRAFT:71:demo',
    ]);
    expect(draftKeysOfOthers(keys, null)).toHaveLength(4);
  });
});
