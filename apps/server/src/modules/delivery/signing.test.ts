import { describe, expect, it } from 'vitest';
import { phoneHash } from '../../lib/phone-hash.ts';
import { backoffMs, SECRET_GRACE_MS, sign, verifySignature, verifyWithRotation } from './signing.ts';

const NOW = 1_790_000_000_000;
const TS = NOW / 1000;

describe('signatures', () => {
  const body = JSON.stringify({ leadId: 'abc', fields: { realName: '张三' } });
  it('accepts its own signature', () => {
    expect(verifySignature('s3cret', String(TS), sign('s3cret', TS, body), body, NOW)).toBeNull();
  });
  it('refuses another secret, another body, a stale or missing timestamp', () => {
    const sig = sign('s3cret', TS, body);
    expect(verifySignature('other', String(TS), sig, body, NOW)).toBe('mismatch');
    expect(verifySignature('s3cret', String(TS), sig, `${body} `, NOW)).toBe('mismatch');
    expect(verifySignature('s3cret', String(TS), sig, body, NOW + 301_000)).toBe('stale');
    expect(verifySignature('s3cret', undefined, sig, body, NOW)).toBe('missing');
    expect(verifySignature('s3cret', String(TS), undefined, body, NOW)).toBe('missing');
    expect(verifySignature('s3cret', String(TS), 'sha256=00', body, NOW)).toBe('mismatch');
  });
  it('is the documented HMAC (known vector)', () => {
    // echo -n '1790000000.{}' | openssl dgst -sha256 -hmac key
    expect(sign('key', 1_790_000_000, '{}')).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(sign('key', 1_790_000_000, '{}')).toBe(sign('key', 1_790_000_000, '{}'));
  });
  it('hashes the phone with the partner secret (never the phone itself)', () => {
    const h = phoneHash('secret-a', '13900000000');
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(h).not.toContain('13900000000');
    expect(phoneHash('secret-b', '13900000000')).not.toBe(h);
  });
});

describe('backoffMs', () => {
  const opts = { baseMs: 1000, maxMs: 60_000, jitter: 0.2 };
  it('doubles per attempt without jitter at the midpoint', () => {
    expect([1, 2, 3, 4].map((a) => backoffMs(a, opts, () => 0.5))).toEqual([1000, 2000, 4000, 8000]);
  });
  it('is capped and stays within ±jitter', () => {
    expect(backoffMs(20, opts, () => 0.5)).toBe(60_000);
    for (let a = 1; a < 12; a++) {
      const mid = Math.min(60_000, 1000 * 2 ** (a - 1));
      expect(backoffMs(a, opts, () => 0)).toBe(Math.round(mid * 0.8));
      expect(backoffMs(a, opts, () => 0.999_999)).toBeLessThanOrEqual(Math.round(mid * 1.2));
    }
  });
});

describe('secret rotation', () => {
  const body = '{"leadId":"x","status":"approved"}';
  const rotatedAt = new Date(NOW - 3600_000);
  const secrets = { current: 'new-secret', previous: 'old-secret', rotatedAt };
  it('accepts the current secret, and the previous one for 24 h after the rotation only', () => {
    expect(verifyWithRotation(secrets, String(TS), sign('new-secret', TS, body), body, NOW)).toBeNull();
    expect(verifyWithRotation(secrets, String(TS), sign('old-secret', TS, body), body, NOW)).toBeNull();
    expect(verifyWithRotation(secrets, String(TS), sign('other', TS, body), body, NOW)).toBe('mismatch');
    const late = NOW + SECRET_GRACE_MS;
    const lateTs = late / 1000;
    expect(verifyWithRotation(secrets, String(lateTs), sign('old-secret', lateTs, body), body, late)).toBe(
      'mismatch',
    );
    expect(
      verifyWithRotation(secrets, String(lateTs), sign('new-secret', lateTs, body), body, late),
    ).toBeNull();
  });
  it('never accepts a stale signature, whichever secret', () => {
    expect(verifyWithRotation(secrets, String(TS), sign('old-secret', TS, body), body, NOW + 301_000)).toBe(
      'stale',
    );
    expect(
      verifyWithRotation({ ...secrets, previous: null }, String(TS), sign('old-secret', TS, body), body, NOW),
    ).toBe('mismatch');
  });
});
