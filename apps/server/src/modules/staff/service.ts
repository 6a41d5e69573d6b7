import { maskPhone } from '@lm/shared/mask';
import type { StaffRole } from '@lm/shared/schemas/auth';
import argon2 from 'argon2';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { staff, staffSessions } from '../../db/schema.ts';
import { encryptField, type KeyRing, newToken, sha256 } from '../../lib/crypto.ts';
import { appError } from '../../lib/errors.ts';
import { describeWait } from '../auth/rules.ts';
import type { ClientMeta, SmsCodes } from '../auth/sms-codes.ts';
import type { Limiter } from '../limits/limiter.ts';

export const MAX_WRONG_PASSWORDS = 5;
export const PASSWORD_LOCK_MS = 15 * 60_000;
export const MAX_STAFF_LOGINS_PER_IP = 30;

export type StaffRow = typeof staff.$inferSelect;

export interface StaffDeps {
  db: Db;
  ring: KeyRing;
  limiter: Limiter;
  codes: SmsCodes;
  sessionTtlHours: number;
  phoneIndex(phone: string): string;
}

export function publicStaff(s: StaffRow) {
  return { id: s.id, name: s.name, mobile: s.mobileMasked, role: s.role };
}

// Verified against when the phone is unknown, so both cases take the same time.
const DUMMY_HASH = argon2.hash('not-a-real-password-placeholder');

export class StaffService {
  constructor(private readonly d: StaffDeps) {}

  async create(input: { phone: string; name: string; role: StaffRole; password?: string | undefined }) {
    if (input.password !== undefined && input.password.length < 10) {
      throw appError('VALIDATION_FAILED', '密码至少10个字符（password）');
    }
    const [row] = await this.d.db
      .insert(staff)
      .values({
        name: input.name,
        mobileEnc: encryptField(this.d.ring, input.phone),
        mobileHash: this.d.phoneIndex(input.phone),
        mobileMasked: maskPhone(input.phone),
        role: input.role,
        passwordHash: input.password ? await argon2.hash(input.password) : null,
      })
      .onConflictDoUpdate({
        target: staff.mobileHash,
        set: {
          name: input.name,
          role: input.role,
          status: 'active',
          ...(input.password ? { passwordHash: await argon2.hash(input.password) } : {}),
        },
      })
      .returning();
    return row!;
  }

  async list(): Promise<StaffRow[]> {
    return this.d.db.select().from(staff).orderBy(staff.id);
  }

  async setStatus(id: number, status: 'active' | 'disabled') {
    await this.d.db.update(staff).set({ status }).where(eq(staff.id, id));
    if (status === 'disabled') {
      await this.d.db
        .update(staffSessions)
        .set({ revokedAt: new Date() })
        .where(and(eq(staffSessions.staffId, id), isNull(staffSessions.revokedAt)));
    }
  }

  private async findByPhone(phone: string): Promise<StaffRow | undefined> {
    const [row] = await this.d.db
      .select()
      .from(staff)
      .where(eq(staff.mobileHash, this.d.phoneIndex(phone)))
      .limit(1);
    return row;
  }

  /** Sends a console login code. Unknown phones get the same answer but no SMS. */
  async sendCode(phone: string, meta: ClientMeta) {
    const member = await this.findByPhone(phone);
    if (member?.status === 'disabled') throw appError('ACCOUNT_FORBIDDEN');
    if (member) {
      const sent = await this.d.codes.send('staff_login', phone, meta);
      return { mobile: maskPhone(phone), ...sent };
    }
    return { mobile: maskPhone(phone), retryAfter: 60, expiresIn: 300 };
  }

  async login(
    input: { phone: string; password?: string | undefined; code?: string | undefined },
    meta: ClientMeta,
  ) {
    const ipDecision = await this.d.limiter.consume(`staff:login:ip:${meta.ip}`, MAX_STAFF_LOGINS_PER_IP, {
      ms: PASSWORD_LOCK_MS,
    });
    if (!ipDecision.allowed) {
      const s = Math.ceil(ipDecision.retryAfterMs / 1000);
      throw appError('RATE_LIMITED', `登录尝试过于频繁，请${describeWait(s)}后再试`, { retryAfter: s });
    }
    const phoneKey = `staff:pwfail:${this.d.phoneIndex(input.phone)}`;
    const lock = await this.d.limiter.isExhausted(phoneKey, MAX_WRONG_PASSWORDS);
    if (!lock.allowed) {
      const s = Math.ceil(lock.retryAfterMs / 1000);
      throw appError('RATE_LIMITED', `密码错误次数过多，账号已临时锁定，请${describeWait(s)}后再试`, {
        retryAfter: s,
      });
    }

    const member = await this.findByPhone(input.phone);
    if (input.password !== undefined) {
      const hash = member?.passwordHash ?? (await DUMMY_HASH);
      const good = await argon2.verify(hash, input.password).catch(() => false);
      if (!member?.passwordHash || !good) {
        await this.d.limiter.record(phoneKey, { ms: PASSWORD_LOCK_MS });
        throw appError('WRONG_CREDENTIALS');
      }
    } else {
      try {
        await this.d.codes.verify('staff_login', input.phone, input.code ?? '');
      } catch (err) {
        if (!member) throw appError('WRONG_CREDENTIALS');
        throw err;
      }
      if (!member) throw appError('WRONG_CREDENTIALS');
    }
    if (member.status === 'disabled') throw appError('ACCOUNT_FORBIDDEN');
    await this.d.limiter.store.clear(phoneKey);

    const token = newToken();
    const now = new Date();
    await this.d.db.insert(staffSessions).values({
      staffId: member.id,
      tokenHash: sha256(token),
      expiresAt: new Date(now.getTime() + this.d.sessionTtlHours * 3600_000),
      ip: meta.ip,
    });
    await this.d.db.update(staff).set({ lastLoginAt: now }).where(eq(staff.id, member.id));
    return { token, staff: publicStaff(member) };
  }

  async authenticate(token: string | undefined): Promise<{ sessionId: number; staff: StaffRow }> {
    if (!token || token.length > 200) throw appError('UNAUTHORIZED');
    const [row] = await this.d.db
      .select({ session: staffSessions, staff })
      .from(staffSessions)
      .innerJoin(staff, eq(staff.id, staffSessions.staffId))
      .where(eq(staffSessions.tokenHash, sha256(token)))
      .limit(1);
    if (!row) throw appError('UNAUTHORIZED');
    if (row.session.revokedAt || row.session.expiresAt.getTime() <= Date.now())
      throw appError('TOKEN_EXPIRED');
    if (row.staff.status === 'disabled') throw appError('ACCOUNT_FORBIDDEN');
    return { sessionId: row.session.id, staff: row.staff };
  }

  async logout(sessionId: number) {
    await this.d.db
      .update(staffSessions)
      .set({ revokedAt: new Date() })
      .where(eq(staffSessions.id, sessionId));
  }
}
