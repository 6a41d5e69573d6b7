import { describe, expect, it } from 'vitest';
import {
  CHALLENGE_LIMITS,
  challengeMayLift,
  challengeSendRules,
  describeWait,
  failedCheckKey,
  isOrphanedMinuteUnit,
  knownDeviceFits,
  knownDeviceSendRules,
  knownDeviceToken,
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

describe('known devices, challenges and holders (ADR 055)', () => {
  const day = { day: '2026-11-22', endOfDay: new Date('2026-11-22T16:00:00Z') };

  it('a known device spends its own minute, hour and day, none of the phone’s or the address’s', () => {
    const rules = knownDeviceSendRules({ deviceId: 7, purpose: 'login', ...day });
    expect(rules.map((r) => [r.key, r.limit])).toEqual([
      ['sms:kd:minute:login:7', 1],
      ['sms:kd:hour:7', 5],
      ['sms:kd:day:2026-11-22:7', 10],
    ]);
    expect(rules[2]!.window).toEqual({ until: day.endOfDay });
    expect(rules.some((r) => r.key.includes('sms:phone') || r.key.includes('sms:ip'))).toBe(false);
  });

  it('a solved challenge spends a budget of its own, every counter with an hour or a day cap', () => {
    const rules = challengeSendRules({ ...base, fingerprintHash: 'F' });
    expect(rules.map((r) => [r.key, r.limit])).toEqual([
      ['sms:ch:ip:hour:1.2.3.4', CHALLENGE_LIMITS.perIpPerHour],
      ['sms:ch:ip:day:2026-11-22:1.2.3.4', CHALLENGE_LIMITS.perIpPerDay],
      ['sms:ch:device:F', CHALLENGE_LIMITS.perDevicePerHour],
      ['sms:ch:phone:minute:login:P', 1],
      ['sms:ch:phone:hour:P', 5],
      ['sms:ch:phone:day:2026-11-22:P', 10],
    ]);
    // None shared with the ordinary budget.
    const ordinary = new Set(smsSendRules({ ...base, fingerprintHash: 'F' }).map((r) => r.key));
    expect(rules.filter((r) => ordinary.has(r.key))).toEqual([]);
    expect(challengeSendRules(base).some((r) => r.key.startsWith('sms:ch:device'))).toBe(false);
  });

  it('a challenge lifts only the caps strangers can fill for someone else', () => {
    const [ip, device, minute, hour, dayKey] = smsSendRules({ ...base, fingerprintHash: 'F' }).map(
      (r) => r.key,
    );
    expect(challengeMayLift(ip!)).toBe(true);
    expect(challengeMayLift(hour!)).toBe(true);
    expect(challengeMayLift(dayKey!)).toBe(true);
    expect(challengeMayLift(minute!)).toBe(false);
    expect(challengeMayLift(device!)).toBe(false);
    // Nor the caps of the challenge's own budget or a device's: those end in 429.
    for (const r of challengeSendRules({ ...base, fingerprintHash: 'F' }))
      expect(challengeMayLift(r.key)).toBe(false);
    for (const r of knownDeviceSendRules({ deviceId: 1, purpose: 'login', ...day }))
      expect(challengeMayLift(r.key)).toBe(false);
  });

  it('failed checks of held codes count on a key of their own', () => {
    expect(failedCheckKey('P', null)).toBe('verify:fail:P');
    expect(failedCheckKey('P', 7)).toBe('verify:fail:P:kd:7');
  });

  it('a known device fits only its own subject and phone, until it expires', () => {
    const now = new Date('2026-11-22T00:00:00Z');
    const row = {
      subjectKind: 'user' as const,
      subjectId: 3,
      phoneHash: 'P',
      expiresAt: new Date(now.getTime() + 1),
    };
    expect(knownDeviceFits(row, { subjectKind: 'user', phoneHash: 'P' }, now)).toBe(true);
    expect(knownDeviceFits(row, { subjectKind: 'user', phoneHash: 'P', subjectId: 3 }, now)).toBe(true);
    expect(knownDeviceFits(row, { subjectKind: 'user', phoneHash: 'P', subjectId: 4 }, now)).toBe(false);
    expect(knownDeviceFits(row, { subjectKind: 'staff', phoneHash: 'P' }, now)).toBe(false);
    expect(knownDeviceFits(row, { subjectKind: 'user', phoneHash: 'Q' }, now)).toBe(false);
    expect(knownDeviceFits({ ...row, expiresAt: now }, { subjectKind: 'user', phoneHash: 'P' }, now)).toBe(
      false,
    );
    expect(knownDeviceFits(undefined, { subjectKind: 'user', phoneHash: 'P' }, now)).toBe(false);
  });
});

describe('the X-Known-Device header', () => {
  it('takes a token-shaped value only', () => {
    expect(knownDeviceToken('a'.repeat(43))).toBe('a'.repeat(43));
    expect(knownDeviceToken('short')).toBeUndefined();
    expect(knownDeviceToken('a'.repeat(129))).toBeUndefined();
    expect(knownDeviceToken(`${'a'.repeat(30)} or 1=1`)).toBeUndefined();
    expect(knownDeviceToken(['a'.repeat(43), 'b'.repeat(43)])).toBeUndefined();
    expect(knownDeviceToken(undefined)).toBeUndefined();
  });
});
