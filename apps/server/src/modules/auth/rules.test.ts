import { describe, expect, it } from 'vitest';
import {
  describeWait,
  isOrphanedMinuteUnit,
  loginTryRule,
  ORPHAN_GRACE_MS,
  sessionVerdict,
  smsSendRules,
} from './rules.ts';

const limits = {
  perPhonePerMinute: 1,
  perPhonePerHour: 5,
  perPhonePerDay: 10,
  perIpPerHour: 30,
  perDevicePerHour: 10,
};
const base = {
  phoneHash: 'P',
  purpose: 'login',
  ip: '1.2.3.4',
  day: '2026-11-22',
  endOfDay: new Date('2026-11-22T16:00:00Z'),
  limits,
};

describe('SMS send rules', () => {
  it('checks IP, device, then the phone per minute, hour and calendar day', () => {
    const rules = smsSendRules({ ...base, fingerprintHash: 'F' });
    expect(rules.map((r) => [r.key, r.limit])).toEqual([
      ['sms:ip:1.2.3.4', 30],
      ['sms:device:F', 10],
      ['sms:phone:minute:login:P', 1],
      ['sms:phone:hour:P', 5],
      ['sms:phone:day:2026-11-22:P', 10],
    ]);
    expect(rules[4]!.window).toEqual({ until: base.endOfDay });
    expect(rules[2]!.window).toEqual({ ms: 60_000 });
  });
  it('skips the device rule without a fingerprint', () => {
    expect(smsSendRules(base).some((r) => r.key.startsWith('sms:device'))).toBe(false);
  });
  it('keeps the one-minute wait per purpose', () => {
    expect(smsSendRules({ ...base, purpose: 'cancel' })[1]!.key).toBe('sms:phone:minute:cancel:P');
  });
});

describe('login tries per address', () => {
  it('allows in 10 minutes as many tries as the address may request codes in an hour', () => {
    expect(loginTryRule('1.2.3.4', limits)).toEqual({
      key: 'login:ip:1.2.3.4',
      limit: 30,
      window: { ms: 600_000 },
      what: '当前网络登录尝试',
    });
    // A deployment that raises SMS_IP_HOURLY_LIMIT (addresses shared by many people) raises it too.
    expect(loginTryRule('::1', { perIpPerHour: 500 })).toMatchObject({ key: 'login:ip:::1', limit: 500 });
  });
});

describe('describeWait', () => {
  it('rounds up to seconds, minutes or hours', () => {
    expect(describeWait(0.2)).toBe('1秒');
    expect(describeWait(45)).toBe('45秒');
    expect(describeWait(60)).toBe('60秒');
    expect(describeWait(61)).toBe('2分钟');
    expect(describeWait(3599)).toBe('60分钟');
    expect(describeWait(3601)).toBe('2小时');
  });
});

describe('sessionVerdict', () => {
  const now = new Date('2026-11-22T00:00:00Z');
  const live = { expiresAt: new Date('2026-11-23T00:00:00Z'), revokedAt: null, revokeReason: null };
  it('maps each state of a session to its answer', () => {
    expect(sessionVerdict(undefined, undefined, now)).toBe('UNAUTHORIZED');
    expect(sessionVerdict(live, 'active', now)).toBe('ok');
    expect(sessionVerdict({ ...live, revokedAt: now, revokeReason: 'replaced' }, 'active', now)).toBe(
      'LOGGED_IN_ELSEWHERE',
    );
    expect(sessionVerdict({ ...live, revokedAt: now, revokeReason: 'logout' }, 'active', now)).toBe(
      'TOKEN_EXPIRED',
    );
    expect(sessionVerdict({ ...live, revokedAt: now, revokeReason: 'cancelled' }, 'cancelled', now)).toBe(
      'TOKEN_EXPIRED',
    );
    expect(sessionVerdict({ ...live, expiresAt: now }, 'active', now)).toBe('TOKEN_EXPIRED');
    expect(sessionVerdict(live, 'cancelled', now)).toBe('TOKEN_EXPIRED');
  });
});

describe('a minute unit whose send stored no code', () => {
  const now = new Date('2026-11-26T03:00:00Z');
  const at = (msAgo: number) => new Date(now.getTime() - msAgo);
  const unit = (ageMs: number, lastCodeAt: Date | null) =>
    isOrphanedMinuteUnit({ retryAfterMs: 60_000 - ageMs, windowMs: 60_000, lastCodeAt, now });

  it('is an orphan once older than the grace and no code was ever stored', () => {
    expect(unit(ORPHAN_GRACE_MS, null)).toBe(true);
    expect(unit(30_000, null)).toBe(true);
  });
  it('is not one while a send in flight may still store its code', () => {
    expect(unit(ORPHAN_GRACE_MS - 1, null)).toBe(false);
    expect(unit(0, null)).toBe(false);
  });
  it('is not one when a code was stored after the unit was taken (or within the clock slack)', () => {
    expect(unit(10_000, at(9_000))).toBe(false);
    expect(unit(10_000, at(11_000))).toBe(false);
  });
  it('is one when the last code is older than the unit', () => {
    expect(unit(10_000, at(12_001))).toBe(true);
    expect(unit(10_000, at(3_600_000))).toBe(true);
  });
  it('takes the grace it is given', () => {
    expect(
      isOrphanedMinuteUnit({ retryAfterMs: 58_000, windowMs: 60_000, lastCodeAt: null, now, graceMs: 1_000 }),
    ).toBe(true);
  });
});
