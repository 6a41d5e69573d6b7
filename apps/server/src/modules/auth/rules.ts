import type { Window } from '../limits/limiter.ts';

export interface SmsLimits {
  perPhonePerMinute: number;
  perPhonePerHour: number;
  perPhonePerDay: number;
  perIpPerHour: number;
  perDevicePerHour: number;
}

export const DEFAULT_PHONE_LIMITS = { perPhonePerMinute: 1, perPhonePerHour: 5, perPhonePerDay: 10 } as const;

export interface SmsRuleInput {
  phoneHash: string;
  /** The one-minute wait is per purpose: a login code does not delay a cancellation code. */
  purpose: string;
  ip: string;
  fingerprintHash?: string | undefined;
  /** Shanghai calendar date, YYYY-MM-DD. */
  day: string;
  endOfDay: Date;
  limits: SmsLimits;
}

/**
 * The limits a code request must pass, in the order they are checked. IP and device caps come
 * first: they defend against SMS pumping across many phones from one client.
 */
/** The key of the phone's one-code-a-minute limit (per purpose). */
export function phoneMinuteKey(purpose: string, phoneHash: string): string {
  return `sms:phone:minute:${purpose}:${phoneHash}`;
}

/** How long a send may take from counting its unit to storing its code before a unit without a code is an orphan. */
export const ORPHAN_GRACE_MS = 5_000;

/**
 * Whether the phone's minute limit refused a send because of a unit that stored no code: the send that counted
 * it died between counting and storing (its instance was killed), so no SMS went out, yet the person would be
 * told "验证码已发送" and wait a minute for nothing. The unit was taken `windowMs - retryAfterMs` ago; once that is
 * at least `graceMs` (a send in flight has stored its code by then) and no code of the phone and purpose was
 * stored from then on (`lastCodeAt`, two seconds of clock slack between the limiter's store and the database),
 * the unit is an orphan and is given back.
 */
export function isOrphanedMinuteUnit(i: {
  retryAfterMs: number;
  windowMs: number;
  lastCodeAt: Date | null;
  now: Date;
  graceMs?: number;
}): boolean {
  const age = i.windowMs - i.retryAfterMs;
  if (age < (i.graceMs ?? ORPHAN_GRACE_MS)) return false;
  const takenAt = i.now.getTime() - age;
  return i.lastCodeAt === null || i.lastCodeAt.getTime() < takenAt - 2_000;
}

export function smsSendRules(
  i: SmsRuleInput,
): { key: string; limit: number; window: Window; reason: string }[] {
  const rules: { key: string; limit: number; window: Window; reason: string }[] = [
    {
      key: `sms:ip:${i.ip}`,
      limit: i.limits.perIpPerHour,
      window: { ms: 3600_000 },
      reason: '当前网络获取验证码过于频繁',
    },
  ];
  if (i.fingerprintHash) {
    rules.push({
      key: `sms:device:${i.fingerprintHash}`,
      limit: i.limits.perDevicePerHour,
      window: { ms: 3600_000 },
      reason: '当前设备获取验证码过于频繁',
    });
  }
  rules.push(
    {
      key: phoneMinuteKey(i.purpose, i.phoneHash),
      limit: i.limits.perPhonePerMinute,
      window: { ms: 60_000 },
      reason: '验证码已发送',
    },
    {
      key: `sms:phone:hour:${i.phoneHash}`,
      limit: i.limits.perPhonePerHour,
      window: { ms: 3600_000 },
      reason: '该手机号本小时获取验证码次数已达上限',
    },
    {
      key: `sms:phone:day:${i.day}:${i.phoneHash}`,
      limit: i.limits.perPhonePerDay,
      window: { until: i.endOfDay },
      reason: '该手机号今日获取验证码次数已达上限',
    },
  );
  return rules;
}

/** The window of the per-address cap on login tries. */
export const LOGIN_TRY_WINDOW_MS = 10 * 60_000;

/**
 * The per-address cap on login tries (`POST /api/login`, right or wrong): as many in 10 minutes as
 * the address may request codes in an hour (`perIpPerHour`, SMS_IP_HOURLY_LIMIT, default 30) — six
 * tries per code it can get, and the scale the deployment chose for shared addresses. With the
 * five wrong tries per code it bounds guessing from one address even for phones with no code.
 */
export function loginTryRule(ip: string, limits: Pick<SmsLimits, 'perIpPerHour'>) {
  return {
    key: `login:ip:${ip}`,
    limit: limits.perIpPerHour,
    window: { ms: LOGIN_TRY_WINDOW_MS } satisfies Window,
    what: '当前网络登录尝试',
  };
}

/** 45 → "45秒", 600 → "10分钟", 7200 → "2小时" (rounded up). */
export { describeWait } from '../limits/limiter.ts';

export type RevokeReason = 'logout' | 'replaced' | 'cancelled';

export type SessionVerdict = 'ok' | 'UNAUTHORIZED' | 'TOKEN_EXPIRED' | 'LOGGED_IN_ELSEWHERE';

/** What a presented token means, from its session row (or its absence). */
export function sessionVerdict(
  session: { expiresAt: Date; revokedAt: Date | null; revokeReason: RevokeReason | null } | undefined,
  userStatus: 'active' | 'cancelled' | undefined,
  now: Date,
): SessionVerdict {
  if (!session) return 'UNAUTHORIZED';
  if (session.revokedAt) return session.revokeReason === 'replaced' ? 'LOGGED_IN_ELSEWHERE' : 'TOKEN_EXPIRED';
  if (session.expiresAt.getTime() <= now.getTime()) return 'TOKEN_EXPIRED';
  if (userStatus !== 'active') return 'TOKEN_EXPIRED';
  return 'ok';
}

/** A send-code rule: a limiter key, its cap and window, and what a refusal says. */
export interface SendRule {
  key: string;
  limit: number;
  window: Window;
  reason: string;
}

/**
 * The budget of a known device (ADR 055): a device that logged in to this phone before asks for codes on its own
 * counters (one a minute per purpose, `perHour` and `perDay`), not on the phone's shared hour and day counters nor
 * the address's cap, which strangers can spend. Every device only exists after a successful login to the phone.
 */
export const KNOWN_DEVICE_LIMITS = { perMinute: 1, perHour: 5, perDay: 10 } as const;

export function knownDeviceSendRules(i: {
  deviceId: number;
  purpose: string;
  day: string;
  endOfDay: Date;
}): SendRule[] {
  return [
    {
      key: `sms:kd:minute:${i.purpose}:${i.deviceId}`,
      limit: KNOWN_DEVICE_LIMITS.perMinute,
      window: { ms: 60_000 },
      reason: '验证码已发送',
    },
    {
      key: `sms:kd:hour:${i.deviceId}`,
      limit: KNOWN_DEVICE_LIMITS.perHour,
      window: { ms: 3600_000 },
      reason: '本设备本小时获取验证码次数已达上限',
    },
    {
      key: `sms:kd:day:${i.day}:${i.deviceId}`,
      limit: KNOWN_DEVICE_LIMITS.perDay,
      window: { until: i.endOfDay },
      reason: '本设备今日获取验证码次数已达上限',
    },
  ];
}

/**
 * The budget of sends that passed a proof-of-work challenge (ADR 055), apart from the ordinary one: per phone
 * (its own minute, hour and day) and per address (hour and day). A person whose phone a stranger keeps under
 * pressure, and the people behind one carrier NAT whose address used its hour, still get codes at the price of
 * a challenge each; pumping stays capped because every counter here has an hour and a day cap.
 */
export const CHALLENGE_LIMITS = {
  perPhonePerMinute: 1,
  perPhonePerHour: 5,
  perPhonePerDay: 10,
  perIpPerHour: 60,
  perIpPerDay: 300,
  perDevicePerHour: 5,
} as const;

export function challengeSendRules(i: Omit<SmsRuleInput, 'limits'>): SendRule[] {
  const rules: SendRule[] = [
    {
      key: `sms:ch:ip:hour:${i.ip}`,
      limit: CHALLENGE_LIMITS.perIpPerHour,
      window: { ms: 3600_000 },
      reason: '当前网络获取验证码过于频繁',
    },
    {
      key: `sms:ch:ip:day:${i.day}:${i.ip}`,
      limit: CHALLENGE_LIMITS.perIpPerDay,
      window: { until: i.endOfDay },
      reason: '当前网络今日获取验证码次数已达上限',
    },
  ];
  if (i.fingerprintHash) {
    rules.push({
      key: `sms:ch:device:${i.fingerprintHash}`,
      limit: CHALLENGE_LIMITS.perDevicePerHour,
      window: { ms: 3600_000 },
      reason: '当前设备获取验证码过于频繁',
    });
  }
  rules.push(
    {
      key: `sms:ch:phone:minute:${i.purpose}:${i.phoneHash}`,
      limit: CHALLENGE_LIMITS.perPhonePerMinute,
      window: { ms: 60_000 },
      reason: '验证码已发送',
    },
    {
      key: `sms:ch:phone:hour:${i.phoneHash}`,
      limit: CHALLENGE_LIMITS.perPhonePerHour,
      window: { ms: 3600_000 },
      reason: '该手机号本小时获取验证码次数已达上限',
    },
    {
      key: `sms:ch:phone:day:${i.day}:${i.phoneHash}`,
      limit: CHALLENGE_LIMITS.perPhonePerDay,
      window: { until: i.endOfDay },
      reason: '该手机号今日获取验证码次数已达上限',
    },
  );
  return rules;
}

/**
 * Whether an ordinary send refused by `key` may be retried with a challenge (1008): the caps that strangers can
 * fill for someone else — the phone's hour and day, and the address's hour (a carrier NAT) — yes; the one-minute
 * wait and the device fingerprint's cap (the same client asking again) no.
 */
export function challengeMayLift(key: string): boolean {
  return key.startsWith('sms:phone:hour:') || key.startsWith('sms:phone:day:') || key.startsWith('sms:ip:');
}

/**
 * The key of the per-phone cap on failed checks (wrong codes while one is outstanding, 100 an hour): one for the
 * codes without a holder, which anyone may try, and one per known device for the codes it holds, which strangers
 * cannot reach (ADR 055).
 */
export function failedCheckKey(phoneHash: string, holderDeviceId: number | null): string {
  return holderDeviceId === null
    ? `verify:fail:${phoneHash}`
    : `verify:fail:${phoneHash}:kd:${holderDeviceId}`;
}

/** How long a known device stays known without a login from it. */
export const KNOWN_DEVICE_TTL_DAYS = 180;

/**
 * Whether a presented known-device row lets `subject` (kind, id, phone) use its budget now: it must be its own,
 * for the same phone, and not expired.
 */
export function knownDeviceFits(
  row: { subjectKind: 'user' | 'staff'; subjectId: number; phoneHash: string; expiresAt: Date } | undefined,
  want: { subjectKind: 'user' | 'staff'; phoneHash: string; subjectId?: number | undefined },
  now: Date,
): boolean {
  if (!row) return false;
  if (row.subjectKind !== want.subjectKind || row.phoneHash !== want.phoneHash) return false;
  if (want.subjectId !== undefined && row.subjectId !== want.subjectId) return false;
  return row.expiresAt.getTime() > now.getTime();
}

/**
 * Wrong staff passwords from a known device of that account (ADR 055) count on the device's own small cap and
 * not against the account's lock, which strangers fill.
 */
export const MAX_WRONG_PASSWORDS_PER_KNOWN_DEVICE = 10;
export const KNOWN_DEVICE_PASSWORD_WINDOW_MS = 3600_000;

/** The header a client sends its known-device token in (ADR 055). */
export const KNOWN_DEVICE_HEADER = 'x-known-device';

/** The known-device token of a request's header, when it looks like one (otherwise undefined). */
export function knownDeviceToken(raw: string | string[] | undefined): string | undefined {
  if (typeof raw !== 'string') return undefined;
  return /^[A-Za-z0-9_-]{20,128}$/.test(raw) ? raw : undefined;
}
