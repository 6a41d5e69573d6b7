import { endOfShanghaiDay, shanghaiDate } from '@lm/shared/time';
import type { FastifyBaseLogger } from 'fastify';
import { constantTimeEqual, newSmsCode } from '../../lib/crypto.ts';
import { appError } from '../../lib/errors.ts';
import type { SmsProvider, SmsPurpose } from '../../providers/sms/types.ts';
import { SmsSendError } from '../../providers/sms/types.ts';
import type { Limiter } from '../limits/limiter.ts';
import {
  describeWait,
  isOrphanedMinuteUnit,
  loginTryRule,
  phoneMinuteKey,
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

  /** Sends a code for `purpose`, signed with the operator of `adChannelCode` (the configured one without). */
  async send(purpose: SmsPurpose, phone: string, meta: ClientMeta, adChannelCode?: string | null) {
    const phoneHash = this.d.phoneIndex(phone);
    const now = new Date();
    const rules = smsSendRules({
      phoneHash,
      purpose,
      ip: meta.ip,
      fingerprintHash: meta.fingerprint ? this.d.idHash(meta.fingerprint) : undefined,
      day: shanghaiDate(now),
      endOfDay: endOfShanghaiDay(now),
      limits: this.d.limits,
    });
    const limiter = this.d.sendLimiter ?? this.d.limiter;
    let decision = await limiter.consumeAll(rules, now.getTime());
    const minuteKey = phoneMinuteKey(purpose, phoneHash);
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
      const retryAfter = Math.ceil(decision.retryAfterMs / 1000);
      throw appError('RATE_LIMITED', `${decision.reason}，请${describeWait(retryAfter)}后再试`, {
        retryAfter,
      });
    }

    const signature = await this.d.signatureFor(adChannelCode);
    const code = newSmsCode();
    const expiresAt = new Date(now.getTime() + this.d.ttlSeconds * 1000);
    // A new code replaces any earlier one for the same phone and purpose: one statement (the update
    // and the insert commit together).
    const insertedId = await this.d.repo.replaceCode({
      phoneHash,
      purpose,
      codeHash: this.d.codeHash(phoneHash, code),
      expiresAt,
      ip: meta.ip,
      fingerprint: meta.fingerprint ?? null,
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
  async verify(purpose: SmsPurpose, phone: string, code: string): Promise<void> {
    const phoneHash = this.d.phoneIndex(phone);
    const now = new Date();
    const row = await this.d.repo.findOutstanding(phoneHash, purpose, now);
    if (!row) throw appError('LOGIN_FAILED', '验证码错误或已过期，请重新获取');

    const failKey = `verify:fail:${phoneHash}`;
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
  }

  /** Removes every code of a phone (account cancellation). */
  async forget(phoneHash: string): Promise<void> {
    await this.d.repo.deleteForPhone(phoneHash);
  }
}
