import { describe, expect, it } from 'vitest';
import { identityStateOf } from './get-verified-identity';

const verified = {
  verified: true,
  realName: '王小明',
  identity: '110***********002X',
  verifiedAt: '2026-11-25T22:00:00.000Z',
};

describe('identityStateOf (the application form’s name and ID number, issue 16.1)', () => {
  it('is read-only with the verified name and masked number', () => {
    expect(identityStateOf({ isPending: false, data: verified }, true)).toEqual({
      status: 'verified',
      realName: '王小明',
      identity: '110***********002X',
    });
  });

  it('keeps the fields disabled while the answer is awaited', () => {
    expect(identityStateOf({ isPending: true }, true)).toEqual({ status: 'loading' });
  });

  it('lets the person type them when not verified, not logged in, or the call failed', () => {
    const none = { verified: false, realName: null, identity: null, verifiedAt: null };
    expect(identityStateOf({ isPending: false, data: none }, true)).toEqual({ status: 'none' });
    expect(identityStateOf({ isPending: true }, false)).toEqual({ status: 'none' });
    expect(identityStateOf({ isPending: false, data: undefined }, true)).toEqual({ status: 'none' });
  });
});
