import { describe, expect, it } from 'vitest';
import { auditSnapshot } from './service.ts';

describe('auditSnapshot', () => {
  it('hides secrets and encrypted columns but keeps the fact that they were set', () => {
    const snap = auditSnapshot({
      name: '渠道A',
      signingSecretEnc: 'v1:abc',
      password: 'x',
      apiToken: null,
      contactPhoneEnc: 'v1:def',
    });
    expect(snap).toEqual({
      name: '渠道A',
      signingSecretEnc: '***',
      password: '***',
      apiToken: null,
      contactPhoneEnc: '***',
    });
  });

  it('writes dates as ISO strings and null for nothing', () => {
    expect(auditSnapshot({ at: new Date('2026-11-22T00:00:00Z') })).toEqual({
      at: '2026-11-22T00:00:00.000Z',
    });
    expect(auditSnapshot(null)).toBeNull();
  });
});
