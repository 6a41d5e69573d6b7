import { endOfShanghaiDay, shanghaiDate } from '@lm/shared/time';
import type { FastifyBaseLogger } from 'fastify';
import { constantTimeEqual, newSmsCode } from '../../lib/crypto.ts';
import { appError } from '../../lib/errors.ts';
import type { SmsProvider, SmsPurpose } from '../../providers/sms/types.ts';
import { SmsSendError } from '../../providers/sms/types.ts';
import type { Limiter } from '../limits/limiter.ts';
import type { Challenges } from './challenge.ts';
import type { KnownDeviceRepository, KnownDeviceRow, SubjectKind } from './known-device-repository.ts';
import {
  challengeMayLift,
  challengeSendRules,
  describeWait,
  failedCheckKey,
  isOrphanedMinuteUnit,
  knownDeviceSendRules,
  loginTryRule,
  type SendRule,
  type SmsLimits,
  smsSendRules,
} from './rules.ts';
import type { SmsCodeRepository } from './sms-code-repository.ts';

export const MAX_WRONG_TRIES_PER_CODE = 5;
export const MAX_FAILED_CHECKS_PER_HOUR = 100;
const MINUTE_MS = 60_000;

export interface ClientMeta {
  ip: string;
  fingerprint?: string | undefined;
  userAgent?: string | undefined;
  /** The channel the page was reached through (platform_param currentChannelCode), when well formed. */
  channelCode?: string | undefined;
  /** The known-device token of the X-Known-Device header, when well formed (ADR 055). */
  knownDevice?: string | undefined;
}

/** Whose codes a purpose is for: a person's (login, cancellation) or a staff member's. */
export function subjectKindOf(purpose: SmsPurpose): SubjectKind {
  return purpose === 'staff_login' ? 'staff' : 'user';
}

export interface SmsCodeDeps {
  repo: SmsCodeRepository;
  limiter: Limiter;
  /** The caps of sending a code (SMS cost, pumping); `limiter` when not given. */
  sendLimiter?: Limiter;
  sms: SmsProvider;
  /** The SMS signature of the operator of a channel (the configured one without a channel), ADR 057. */
  signatureFor(adChannelCode: string | null | undefined): Promise<string>;
  limits: SmsLimits;
  ttlSeconds: number;
  /** Blind index of a phone number. */
  phoneIndex(phone: string): string;
  /** Keyed hash of a code bound to a phone. */
  codeHash(phoneHash: string, code: string): string;
  /** Keyed hash for other identifiers (fingerprints) used in limiter keys. */
  idHash(value: string): string;
  /** Devices that logged in before (ADR 055). */
  devices: KnownDeviceRepository;
  /** Proof-of-work challenges for requests under pressure without a known device (ADR 055). */
  challenges: Challenges;
  log?: Pick<FastifyBaseLogger, 'warn'>;
}

/**
 * SMS verification codes: six digits from a CSPRNG, stored as a keyed hash bound to the phone,
 * valid `ttlSeconds`, single use, at most five wrong tries each, at most 100 failed checks (wrong
 * codes while one is outstanding) an hour per phone. Sending is limited per phone (1/min, 5/hour,
 * 10/calendar day), per IP and per device; login tries per IP (`loginTryRule`).
 */
export class SmsCodes {
  constructor(private readonly d: SmsCodeDeps) {}

  get limiter(): Limiter {
    return this.d.limiter;
  }

  /**
   * Sends a code for `purpose`, signed with the operator of `adChannelCode` (the configured one without). Three
   * budgets (ADR 055): a known device of this phone (`meta.knownDevice`) spends its own; a request with a solved
   * challenge (`altcha`) spends the challenge budget; any other the ordinary one, and when the phone's hour or day
   * or the address's hour refuses it, the answer is 1008 with a challenge instead of 429.
   */
  async send(
    purpose: SmsPurpose,
    phone: string,
    meta: ClientMeta,
    adChannelCode?: string | null,
    altcha?: string | undefined,
  ) {
    const phoneHash = this.d.phoneIndex(phone);
    const now = new Date();
    const day = shanghaiDate(now);
    const endOfDay = endOfShanghaiDay(now);
    const device = await this.d.devices.find(
      meta.knownDevice,
      { subjectKind: subjectKindOf(purpose), phoneHash },
      now,
    );
    const fingerprintHash = meta.fingerprint ? this.d.idHash(meta.fingerprint) : undefined;
    let rules: SendRule[];
    if (device) {
      rules = knownDeviceSendRules({ deviceId: device.id, purpose, day, endOfDay });
    } else if (altcha !== undefined) {
      const verdict = await this.d.challenges.spend(altcha, purpose);
      if (verdict !== 'ok') {
        throw appError(
          'CHALLENGE_REQUIRED',
          verdict === 'replayed' ? '安全验证已使用，请重新验证' : '安全验证未通过，请重新验证',
          await this.d.challenges.create(purpose),
        );
      }
      rules = challengeSendRules({ phoneHash, purpose, ip: meta.ip, fingerprintHash, day, endOfDay });
    } else {
      rules = smsSendRules({
        phoneHash,
        purpose,
        ip: meta.ip,
        fingerprintHash,
        day,
        endOfDay,
        limits: this.d.limits,
      });
    }
    const limiter = this.d.sendLimiter ?? this.d.limiter;
    let decision = await limiter.consumeAll(rules, now.getTime());
    // Each budget has a one-code-a-minute key for the purpose.
    const minuteKey = rules.find((r) => 'ms' in r.window && r.window.ms === MINUTE_MS)!.key;
    if (
      !decision.allowed &&
      decision.key === minuteKey &&
      isOrphanedMinuteUnit({
        retryAfterMs: decision.retryAfterMs,
        windowMs: MINUTE_MS,
        lastCodeAt: await this.d.repo.lastIssuedAt(phoneHash, purpose),
        now,
      })
    ) {
      // A send counted this minute and died before storing its code: no SMS went out. Give the unit back.
      this.d.log?.warn({ purpose }, 'sms send: a minute unit without a code given back (its send died)');
      await limiter.store.decrement(minuteKey);
      decision = await limiter.consumeAll(rules, now.getTime());
    }
    if (!decision.allowed) {
      if (!device && altcha === undefined && challengeMayLift(decision.key)) {
        // Under pressure that strangers may have caused: a challenge opens the budget of its own.
        throw appError(
          'CHALLENGE_REQUIRED',
          `${decision.reason}，请完成安全验证后再获取验证码`,
          await this.d.challenges.create(purpose),
        );
      }
      const retryAfter = Math.ceil(decision.retryAfterMs / 1000);
      throw appError('RATE_LIMITED', `${decision.reason}，请${describeWait(retryAfter)}后再试`, {
        retryAfter,
      });
    }

    const signature = await this.d.signatureFor(adChannelCode);
    const code = newSmsCode();
    const expiresAt = new Date(now.getTime() + this.d.ttlSeconds * 1000);
    // A new code replaces any earlier one for the same phone, purpose and holder: one statement (the update
    // and the insert commit together). A stranger's send never replaces the code a known device holds.
    const insertedId = await this.d.repo.replaceCode({
      phoneHash,
      purpose,
      codeHash: this.d.codeHash(phoneHash, code),
      expiresAt,
      ip: meta.ip,
      fingerprint: meta.fingerprint ?? null,
      holderDeviceId: device?.id ?? null,
      now,
    });
    try {
      await this.d.sms.send({
        phone,
        code,
        purpose,
        ttlMinutes: Math.round(this.d.ttlSeconds / 60),
        signature,
      });
    } catch (err) {
      await this.d.repo.markUsed(insertedId, new Date());
      // No SMS went out: the phone's minute is given back, so asking again goes to the gateway again
      // rather than "验证码已发送，请N秒后再试" (the day's counts stay: they bound how often it is tried).
      await limiter.store.decrement(minuteKey).catch((e: Error) => {
        this.d.log?.warn(
          { err: { message: e.message } },
          'sms send: the minute unit could not be given back',
        );
      });
      if (err instanceof SmsSendError) throw appError('SMS_SEND_FAILED');
      throw err;
    }
    return { retryAfter: 60, expiresIn: this.d.ttlSeconds };
  }

  /** Counts one login try of the address, or throws RATE_LIMITED past `loginTryRule`'s cap. */
  async limitLoginTries(ip: string): Promise<void> {
    const rule = loginTryRule(ip, this.d.limits);
    await this.d.limiter.enforce(rule.key, rule.limit, rule.window, rule.what);
  }

  /**
   * Checks and consumes a code. Throws LOGIN_FAILED (or RATE_LIMITED) when it does not pass.
   *
   * Only a check against an outstanding code counts against the phone: with none (never sent,
   * expired, used, or burnt by wrong tries) nothing is guessed, and counting it would let anyone lock
   * a person out by trying codes for their phone (issue 15). Such a check is reserved on the phone's
   * hourly count before the comparison and given back when the code is right, so checks in flight
   * count too. Each wrong try is one atomic update of the code's row, which burns it at the fifth:
   * the consuming update needs the row unused, so no right code passes after five wrong ones.
   */
  async verify(
    purpose: SmsPurpose,
    phone: string,
    code: string,
    knownDevice?: string | undefined,
  ): Promise<KnownDeviceRow | undefined> {
    const phoneHash = this.d.phoneIndex(phone);
    const now = new Date();
    // A known device of this phone checks the code it holds (ADR 055), else, like everyone, the unheld one.
    const device = await this.d.devices.find(
      knownDevice,
      { subjectKind: subjectKindOf(purpose), phoneHash },
      now,
    );
    const row =
      (device ? await this.d.repo.findOutstanding(phoneHash, purpose, now, device.id) : undefined) ??
      (await this.d.repo.findOutstanding(phoneHash, purpose, now, null));
    if (!row) throw appError('LOGIN_FAILED', '验证码错误或已过期，请重新获取');

    const failKey = failedCheckKey(phoneHash, row.holderDeviceId);
    const reserved = await this.d.limiter.consume(failKey, MAX_FAILED_CHECKS_PER_HOUR, { ms: 3600_000 });
    if (!reserved.allowed) {
      const retryAfter = Math.ceil(reserved.retryAfterMs / 1000);
      throw appError('RATE_LIMITED', `验证失败次数过多，请${describeWait(retryAfter)}后再试`, { retryAfter });
    }

    if (!constantTimeEqual(row.codeHash, this.d.codeHash(phoneHash, code))) {
      // The reserved unit stays: a wrong guess at an outstanding code.
      const attempts = await this.d.repo.countWrongTry(row.id, MAX_WRONG_TRIES_PER_CODE);
      const left = MAX_WRONG_TRIES_PER_CODE - (attempts ?? MAX_WRONG_TRIES_PER_CODE);
      throw appError('LOGIN_FAILED', left > 0 ? '登录失败，请检查验证码' : '验证码错误次数过多，请重新获取');
    }

    // The right code: not a failed check, whether or not it wins the race to consume the code.
    await this.d.limiter.store.decrement(failKey);
    const consumed = await this.d.repo.consume(row.id, now);
    if (!consumed) throw appError('LOGIN_FAILED', '验证码已使用，请重新获取');
    return device;
  }

  /** Removes every code of a phone (account cancellation). */
  async forget(phoneHash: string): Promise<void> {
    await this.d.repo.deleteForPhone(phoneHash);
  }
}
