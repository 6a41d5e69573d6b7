import { maskPhone } from '@lm/shared/mask';
import { MOBILE_TICKET_PREFIX } from '@lm/shared/schemas/auth';
import { isValidPhone } from '@lm/shared/validators/phone';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { applicationDrafts, channels, creditProfiles, sessions, smsOutbox, users } from '../../db/schema.ts';
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
  db: Db;
  ring: KeyRing;
  partnerKeys: Map<string, PartnerKey>;
  codes: SmsCodes;
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

export type AuthUser = typeof users.$inferSelect;

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

  async sendLoginCode(input: PhoneCarrier, meta: ClientMeta) {
    const phone = this.resolvePhone(input);
    const sent = await this.d.codes.send('login', phone, meta);
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
    await this.d.codes.verify('login', phone, input.code);

    const user = await this.findOrCreateUser(phone, input);
    const token = newToken();
    const now = new Date();
    await this.d.db.transaction(async (tx) => {
      // Updating the person's row first locks it: concurrent logins of one person queue here, and
      // each statement after it sees the sessions of the login before (so exactly one stays active).
      await tx
        .update(users)
        .set({
          lastLoginAt: now,
          ...(input.abTestType !== undefined ? { abTestType: input.abTestType } : {}),
          ...(input.isFormReq !== undefined ? { isFormReq: input.isFormReq } : {}),
        })
        .where(eq(users.id, user.id));
      // One active session per person: earlier tokens now answer 1006.
      await tx
        .update(sessions)
        .set({ revokedAt: now, revokeReason: 'replaced' })
        .where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt)));
      await tx.insert(sessions).values({
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
    };
  }

  private async findActiveByPhone(phone: string): Promise<AuthUser | undefined> {
    const [row] = await this.d.db
      .select()
      .from(users)
      .where(and(eq(users.mobileHash, this.d.phoneIndex(phone)), eq(users.status, 'active')))
      .limit(1);
    return row;
  }

  private async findOrCreateUser(phone: string, input: LoginInput): Promise<AuthUser> {
    const existing = await this.findActiveByPhone(phone);
    if (existing) return existing;
    let adChannelId: number | null = null;
    if (input.adChannelCode) {
      const [channel] = await this.d.db
        .select({ id: channels.id })
        .from(channels)
        .where(eq(channels.adChannelCode, input.adChannelCode))
        .limit(1);
      adChannelId = channel?.id ?? null;
    }
    try {
      const [created] = await this.d.db
        .insert(users)
        .values({
          mobileEnc: encryptField(this.d.ring, phone),
          mobileHash: this.d.phoneIndex(phone),
          mobileMasked: maskPhone(phone),
          adChannelCode: input.adChannelCode ?? null,
          adChannelId,
          abTestType: input.abTestType ?? null,
          isFormReq: input.isFormReq ?? false,
        })
        .returning();
      return created!;
    } catch (err) {
      // Two first logins of the same phone at once: the other one created the row.
      const again = await this.findActiveByPhone(phone);
      if (again) return again;
      throw err;
    }
  }

  /** Resolves an accessToken to its session and person, or throws 401 / 1005 / 1006. */
  async authenticate(token: string | undefined): Promise<{ sessionId: number; user: AuthUser }> {
    if (!token || token.length > 200) throw appError('UNAUTHORIZED');
    const [row] = await this.d.db
      .select({ session: sessions, user: users })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(sessions.tokenHash, sha256(token)))
      .limit(1);
    const verdict = sessionVerdict(row?.session, row?.user.status, new Date());
    if (verdict !== 'ok') throw appError(verdict);
    return { sessionId: row!.session.id, user: row!.user };
  }

  async logout(sessionId: number): Promise<void> {
    await this.d.db
      .update(sessions)
      .set({ revokedAt: new Date(), revokeReason: 'logout' })
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
  }

  phoneOf(user: AuthUser): string {
    if (!user.mobileEnc) throw appError('TOKEN_EXPIRED');
    return decryptField(this.d.ring, user.mobileEnc);
  }

  async sendCancellationCode(user: AuthUser, meta: ClientMeta) {
    const phone = this.phoneOf(user);
    const sent = await this.d.codes.send('cancel', phone, meta);
    return { mobile: maskPhone(phone), ...sent };
  }

  /**
   * Cancels the account: the phone (encrypted value, blind index) is erased, the row keeps only
   * what is not personal, every session is revoked, the application draft, the credit information
   * and the codes of that phone are deleted; `onCancel` (the privacy module) withdraws the consents,
   * stops pending leads and asks each lender that received data to delete it (docs/privacy.md).
   * The same phone can register again as a new person.
   */
  async cancel(user: AuthUser, code: string | undefined, requestId: string | null = null): Promise<void> {
    const phone = this.phoneOf(user);
    if (!code) throw appError('VERIFICATION_CODE_REQUIRED');
    await this.d.codes.verify('cancel', phone, code);
    const phoneHash = this.d.phoneIndex(phone);
    const now = new Date();
    await this.d.db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({
          mobileEnc: null,
          mobileHash: null,
          mobileMasked: '已注销',
          abTestType: null,
          status: 'cancelled',
          cancelledAt: now,
        })
        .where(eq(users.id, user.id));
      await tx
        .update(sessions)
        .set({ revokedAt: now, revokeReason: 'cancelled' })
        .where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt)));
      await tx.update(sessions).set({ ip: null, userAgent: null }).where(eq(sessions.userId, user.id));
      await tx.delete(smsOutbox).where(eq(smsOutbox.phoneHash, phoneHash));
      // The application draft holds the name and ID number.
      await tx.delete(applicationDrafts).where(eq(applicationDrafts.userId, user.id));
      // The credit information holds two other people's names and phones (and the face status).
      await tx.delete(creditProfiles).where(eq(creditProfiles.userId, user.id));
      await this.d.onCancel?.(tx as unknown as Db, user.id, now, requestId);
    });
    await this.d.codes.forget(phoneHash);
  }
}
