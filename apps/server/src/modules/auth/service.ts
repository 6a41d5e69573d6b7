import { maskPhone } from '@lm/shared/mask';
import { MOBILE_TICKET_PREFIX } from '@lm/shared/schemas/auth';
import { isValidPhone } from '@lm/shared/validators/phone';
import type { Db } from '../../db/client.ts';
import {
  decryptField,
  encryptField,
  type KeyRing,
  newToken,
  type PartnerKey,
  partnerDecrypt,
  seal,
  sha256,
  unseal,
} from '../../lib/crypto.ts';
import { appError } from '../../lib/errors.ts';
import { loginOutcome, type Metrics } from '../../lib/metrics.ts';
import type { KnownDeviceRepository } from './known-device-repository.ts';
import type { AuthRepository, UserRow } from './repository.ts';
import { sessionVerdict } from './rules.ts';
import type { ClientMeta, SmsCodes } from './sms-codes.ts';

export const TICKET_TTL_SECONDS = 600;
export const LOOKUPS_PER_IP_PER_HOUR = 120;

export interface PhoneCarrier {
  phone?: string | undefined;
  mobile?: string | undefined;
  encryptionMobile?: string | undefined;
  source?: string | undefined;
}

export interface AuthDeps {
  repo: AuthRepository;
  ring: KeyRing;
  partnerKeys: Map<string, PartnerKey>;
  codes: SmsCodes;
  /** Devices that logged in (ADR 055). */
  devices: KnownDeviceRepository;
  sessionTtlHours: number;
  phoneIndex(phone: string): string;
  /** Counts logins by outcome. */
  metrics?: Metrics | undefined;
  /**
   * Runs inside the cancellation transaction (PrivacyService.onCancellation): withdraws consents,
   * stops pending leads, queues deletion notices to lenders, erases copies of the answers.
   */
  onCancel?: (tx: Db, userId: number, now: Date, requestId: string | null) => Promise<unknown>;
}

export type AuthUser = UserRow;

export interface LoginInput extends PhoneCarrier {
  code?: string | undefined;
  adChannelCode?: string | undefined;
  abTestType?: number | undefined;
  isFormReq?: boolean | undefined;
}

export class AuthService {
  constructor(private readonly d: AuthDeps) {}

  /** The phone a request is about: given in clear, or carried encrypted by a partner link or ticket. */
  resolvePhone(input: PhoneCarrier): string {
    const clear = input.phone ?? input.mobile;
    if (clear) return clear;
    const enc = input.encryptionMobile;
    if (!enc) throw appError('VALIDATION_FAILED', '请输入手机号（phone）');
    let phone: string | null = null;
    if (enc.startsWith(MOBILE_TICKET_PREFIX)) {
      const ticket = unseal<{ p: string; exp: number }>(this.d.ring, enc.slice(MOBILE_TICKET_PREFIX.length));
      if (ticket && ticket.exp > Date.now()) phone = ticket.p;
    } else {
      const key = input.source ? this.d.partnerKeys.get(input.source) : undefined;
      if (key) phone = partnerDecrypt(key, enc);
    }
    if (!phone || !isValidPhone(phone)) throw appError('ENCRYPTED_MOBILE_INVALID');
    return phone;
  }

  /** Per-IP cap on encrypted-phone lookups: they tell whether a phone has an account. */
  async limitLookups(ip: string): Promise<void> {
    await this.d.codes.limiter.enforce(`lookup:ip:${ip}`, LOOKUPS_PER_IP_PER_HOUR, { ms: 3600_000 }, '查询');
  }

  /** Exchanges a partner-encrypted phone for its masked form and a short-lived ticket. */
  encryptionMobile(input: { encryptionMobile: string; source: string }) {
    const phone = this.resolvePhone(input);
    const ticket =
      MOBILE_TICKET_PREFIX + seal(this.d.ring, { p: phone, exp: Date.now() + TICKET_TTL_SECONDS * 1000 });
    return { mobile: maskPhone(phone), ticket, expiresIn: TICKET_TTL_SECONDS };
  }

  async isRegistered(input: PhoneCarrier): Promise<boolean> {
    const phone = this.resolvePhone(input);
    return (await this.findActiveByPhone(phone)) !== undefined;
  }

  /** The code is signed by the operator of the channel the body names, else of the page's (platform_param). */
  async sendLoginCode(
    input: PhoneCarrier & { channelCode?: string | undefined; altcha?: string | undefined },
    meta: ClientMeta,
  ) {
    const phone = this.resolvePhone(input);
    const sent = await this.d.codes.send(
      'login',
      phone,
      meta,
      input.channelCode ?? meta.channelCode,
      input.altcha,
    );
    return { mobile: maskPhone(phone), ...sent };
  }

  async login(input: LoginInput, meta: ClientMeta) {
    try {
      const result = await this.loginOnce(input, meta);
      this.d.metrics?.logins.inc({ kind: 'user', outcome: 'success' });
      return result;
    } catch (err) {
      this.d.metrics?.logins.inc({ kind: 'user', outcome: loginOutcome(err) });
      throw err;
    }
  }

  private async loginOnce(input: LoginInput, meta: ClientMeta) {
    // Every try counts against the address, whatever it is for (issue 15).
    await this.d.codes.limitLoginTries(meta.ip);
    const phone = this.resolvePhone(input);
    if (!input.code) throw appError('VERIFICATION_CODE_REQUIRED');
    await this.d.codes.verify('login', phone, input.code, meta.knownDevice);

    const { user, created } = await this.findOrCreateUser(phone, input);
    // This device is known from now on (or again): its own code budget, which strangers cannot spend (ADR 055).
    const knownDevice = await this.d.devices.remember(meta.knownDevice, {
      subjectKind: 'user',
      subjectId: user.id,
      phoneHash: this.d.phoneIndex(phone),
    });
    const token = newToken();
    const now = new Date();
    await this.d.repo.transaction(async (repo) => {
      // Updating the person's row first locks it: concurrent logins of one person queue here, and
      // each statement after it sees the sessions of the login before (so exactly one stays active).
      await repo.recordLogin(user.id, now, { abTestType: input.abTestType, isFormReq: input.isFormReq });
      // One active session per person: earlier tokens now answer 1006.
      await repo.revokeActiveSessions(user.id, now, 'replaced');
      await repo.insertSession({
        userId: user.id,
        tokenHash: sha256(token),
        expiresAt: new Date(now.getTime() + this.d.sessionTtlHours * 3600_000),
        ip: meta.ip,
        userAgent: meta.userAgent?.slice(0, 512) ?? null,
      });
    });
    return {
      token,
      loginUser: { uid: user.id, userInfoStatus: user.userInfoStatus, coverStatus: user.coverStatus },
      knownDevice,
      /** Whether this login made the person (a registration, issue 47.3); not answered. */
      created,
    };
  }

  private async findActiveByPhone(phone: string): Promise<AuthUser | undefined> {
    return this.d.repo.findActiveByPhoneHash(this.d.phoneIndex(phone));
  }

  private async findOrCreateUser(
    phone: string,
    input: LoginInput,
  ): Promise<{ user: AuthUser; created: boolean }> {
    const existing = await this.findActiveByPhone(phone);
    if (existing) return { user: existing, created: false };
    let adChannelId: number | null = null;
    if (input.adChannelCode) {
      adChannelId = await this.d.repo.findChannelId(input.adChannelCode);
    }
    try {
      const user = await this.d.repo.insertUser({
        mobileEnc: encryptField(this.d.ring, phone),
        mobileHash: this.d.phoneIndex(phone),
        mobileMasked: maskPhone(phone),
        adChannelCode: input.adChannelCode ?? null,
        adChannelId,
        abTestType: input.abTestType ?? null,
        isFormReq: input.isFormReq ?? false,
      });
      return { user, created: true };
    } catch (err) {
      // Two first logins of the same phone at once: the other one created the row.
      const again = await this.findActiveByPhone(phone);
      if (again) return { user: again, created: false };
      throw err;
    }
  }

  /** Resolves an accessToken to its session and person, or throws 401 / 1005 / 1006. */
  async authenticate(token: string | undefined): Promise<{ sessionId: number; user: AuthUser }> {
    if (!token || token.length > 200) throw appError('UNAUTHORIZED');
    const row = await this.d.repo.findSessionByTokenHash(sha256(token));
    const verdict = sessionVerdict(row?.session, row?.user.status, new Date());
    if (verdict !== 'ok') throw appError(verdict);
    return { sessionId: row!.session.id, user: row!.user };
  }

  async logout(sessionId: number): Promise<void> {
    await this.d.repo.revokeSession(sessionId, new Date());
  }

  phoneOf(user: AuthUser): string {
    if (!user.mobileEnc) throw appError('TOKEN_EXPIRED');
    return decryptField(this.d.ring, user.mobileEnc);
  }

  /** Signed by the operator of the page's channel (platform_param), else of the channel the person came through. */
  async sendCancellationCode(user: AuthUser, meta: ClientMeta) {
    const phone = this.phoneOf(user);
    const sent = await this.d.codes.send('cancel', phone, meta, meta.channelCode ?? user.adChannelCode);
    return { mobile: maskPhone(phone), ...sent };
  }

  /**
   * Cancels the account: the phone (encrypted value, blind index) is erased, the row keeps only
   * what is not personal, every session is revoked, the application draft, the credit information
   * and the codes of that phone are deleted, the reports not yet sent to an ad platform dropped and the
   * person's ad clicks unlinked; `onCancel` (the privacy module) withdraws the consents,
   * stops pending leads and asks each lender that received data to delete it (docs/privacy.md).
   * The same phone can register again as a new person.
   */
  async cancel(
    user: AuthUser,
    code: string | undefined,
    requestId: string | null = null,
    knownDevice?: string | undefined,
  ): Promise<void> {
    const phone = this.phoneOf(user);
    if (!code) throw appError('VERIFICATION_CODE_REQUIRED');
    await this.d.codes.verify('cancel', phone, code, knownDevice);
    const phoneHash = this.d.phoneIndex(phone);
    const now = new Date();
    await this.d.repo.transaction(async (repo, tx) => {
      await repo.markCancelled(user.id, now);
      await repo.revokeActiveSessions(user.id, now, 'cancelled');
      await repo.clearSessionClients(user.id);
      await repo.deleteOutboxMessages(phoneHash);
      // The application draft holds the name and ID number.
      await repo.deleteApplicationDraft(user.id);
      // The credit information holds two other people's names and phones (and the face status).
      await repo.deleteCreditProfile(user.id);
      // No more conversion reports about this person (隐私政策 第六条, 第八条).
      await repo.endAdAttribution(user.id);
      await this.d.onCancel?.(tx, user.id, now, requestId);
    });
    await this.d.codes.forget(phoneHash);
    await this.d.devices.forget('user', user.id);
  }
}
