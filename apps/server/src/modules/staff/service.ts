import { randomInt } from 'node:crypto';
import { maskPhone } from '@lm/shared/mask';
import {
  STAFF_PASSWORD_MIN,
  type StaffListItem,
  type StaffListQuery,
  type StaffRole,
  type UpdateStaffBody,
} from '@lm/shared/schemas/auth';
import argon2 from 'argon2';
import { and, asc, count, desc, eq, ilike, inArray, isNull, ne, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { channels, staff, staffSessions } from '../../db/schema.ts';
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
  return { id: s.id, name: s.name, mobile: s.mobileMasked, role: s.role, channelCodes: s.channelCodes };
}

/** A row of the console's account list (no hashes, phone masked). */
export function staffListItem(s: StaffRow): StaffListItem {
  return {
    ...publicStaff(s),
    status: s.status,
    hasPassword: s.passwordHash !== null,
    createdAt: s.createdAt.toISOString(),
    lastLoginAt: s.lastLoginAt?.toISOString() ?? null,
  };
}

/** What the audit log keeps of an account (never the password hash or the encrypted phone). */
export function auditView(s: StaffRow): Record<string, unknown> {
  return {
    name: s.name,
    mobile: s.mobileMasked,
    role: s.role,
    status: s.status,
    channelCodes: s.channelCodes,
    // (A key naming "password" would be masked by the audit log.)
    loginMethods: s.passwordHash !== null ? 'password+sms' : 'sms',
  };
}

/** Password alphabet without look-alikes (0/O, 1/l/I). */
const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
/** A random password for a reset, shown once to the admin. */
export function generatePassword(length = 14): string {
  let out = '';
  for (let i = 0; i < Math.max(length, STAFF_PASSWORD_MIN); i++)
    out += PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)];
  return out;
}

const SORT_COLUMNS = {
  id: staff.id,
  name: staff.name,
  role: staff.role,
  status: staff.status,
  createdAt: staff.createdAt,
  lastLoginAt: staff.lastLoginAt,
} as const;

// Verified against when the phone is unknown, so both cases take the same time.
const DUMMY_HASH = argon2.hash('not-a-real-password-placeholder');

export class StaffService {
  constructor(private readonly d: StaffDeps) {}

  /**
   * Creates an account, or updates the one with this phone (name, role, channels, password; enabled
   * again). Used by `npm run admin:create` and tests; the console's POST refuses existing phones.
   */
  async create(
    input: {
      phone: string;
      name: string;
      role: StaffRole;
      password?: string | undefined;
      channelCodes?: string[] | undefined;
    },
    db: Db = this.d.db,
  ) {
    if (input.password !== undefined && input.password.length < STAFF_PASSWORD_MIN) {
      throw appError('VALIDATION_FAILED', `密码至少${STAFF_PASSWORD_MIN}个字符（password）`);
    }
    const channelCodes = input.role === 'channel_partner' ? (input.channelCodes ?? []) : [];
    const passwordHash = input.password ? await argon2.hash(input.password) : null;
    const [row] = await db
      .insert(staff)
      .values({
        name: input.name,
        mobileEnc: encryptField(this.d.ring, input.phone),
        mobileHash: this.d.phoneIndex(input.phone),
        mobileMasked: maskPhone(input.phone),
        role: input.role,
        channelCodes,
        passwordHash,
      })
      .onConflictDoUpdate({
        target: staff.mobileHash,
        set: {
          name: input.name,
          role: input.role,
          status: 'active',
          channelCodes,
          ...(passwordHash ? { passwordHash } : {}),
        },
      })
      .returning();
    return row!;
  }

  /** 400 unless every code is an existing channel. */
  async requireChannels(codes: readonly string[], db: Db = this.d.db): Promise<void> {
    if (codes.length === 0) return;
    const found = await db
      .select({ code: channels.adChannelCode })
      .from(channels)
      .where(inArray(channels.adChannelCode, [...codes]));
    const missing = codes.filter((c) => !found.some((f) => f.code === c));
    if (missing.length) throw appError('VALIDATION_FAILED', `渠道不存在：${missing.join('、')}`);
  }

  /** The console's account list: filters, sorting, paging. */
  async list(q: StaffListQuery): Promise<{ total: number; list: StaffListItem[] }> {
    const conds: (SQL | undefined)[] = [
      q.role ? eq(staff.role, q.role) : undefined,
      q.status ? eq(staff.status, q.status) : undefined,
    ];
    if (q.keyword) {
      const pattern = `%${q.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      conds.push(
        /^1[3-9]\d{9}$/.test(q.keyword)
          ? or(ilike(staff.name, pattern), eq(staff.mobileHash, this.d.phoneIndex(q.keyword)))
          : ilike(staff.name, pattern),
      );
    }
    const where = and(...conds);
    const column = SORT_COLUMNS[q.sort];
    const [rows, [total]] = await Promise.all([
      this.d.db
        .select()
        .from(staff)
        .where(where)
        .orderBy(q.order === 'asc' ? asc(column) : desc(column), asc(staff.id))
        .limit(q.pageSize)
        .offset((q.page - 1) * q.pageSize),
      this.d.db.select({ n: count() }).from(staff).where(where),
    ]);
    return { total: total?.n ?? 0, list: rows.map(staffListItem) };
  }

  async get(id: number, db: Db = this.d.db): Promise<StaffRow> {
    const [row] = await db.select().from(staff).where(eq(staff.id, id)).limit(1);
    if (!row) throw appError('NOT_FOUND', '账号不存在');
    return row;
  }

  /** 400 when `id` is the last active admin and the change would leave none. */
  private async keepAnAdmin(id: number, db: Db): Promise<void> {
    const [other] = await db
      .select({ n: count() })
      .from(staff)
      .where(and(eq(staff.role, 'admin'), eq(staff.status, 'active'), ne(staff.id, id)));
    if ((other?.n ?? 0) === 0) throw appError('VALIDATION_FAILED', '至少需要保留一个启用的管理员账号');
  }

  /** Name, role and channels. A channel partner keeps at least one channel; others get none. */
  async update(id: number, input: UpdateStaffBody, db: Db = this.d.db) {
    const before = await this.get(id, db);
    const role = input.role ?? before.role;
    let channelCodes = input.channelCodes ?? before.channelCodes;
    if (role !== 'channel_partner') channelCodes = [];
    else if (channelCodes.length === 0) throw appError('VALIDATION_FAILED', '渠道合作方账号至少需要一个渠道');
    await this.requireChannels(input.channelCodes ?? [], db);
    if (before.role === 'admin' && role !== 'admin' && before.status === 'active')
      await this.keepAnAdmin(id, db);
    const [after] = await db
      .update(staff)
      .set({ name: input.name ?? before.name, role, channelCodes })
      .where(eq(staff.id, id))
      .returning();
    return { before, after: after! };
  }

  async setStatus(id: number, status: 'active' | 'disabled', db: Db = this.d.db) {
    const before = await this.get(id, db);
    if (status === 'disabled' && before.role === 'admin' && before.status === 'active')
      await this.keepAnAdmin(id, db);
    const [after] = await db.update(staff).set({ status }).where(eq(staff.id, id)).returning();
    if (status === 'disabled') await this.revokeSessions(id, db);
    return { before, after: after! };
  }

  /** Sets the given password or a generated one (returned once); the account's sessions end. */
  async resetPassword(id: number, password: string | undefined, db: Db = this.d.db) {
    const before = await this.get(id, db);
    const plain = password ?? generatePassword();
    const [after] = await db
      .update(staff)
      .set({ passwordHash: await argon2.hash(plain) })
      .where(eq(staff.id, id))
      .returning();
    await this.revokeSessions(id, db);
    return { before, after: after!, generated: password === undefined ? plain : null };
  }

  /**
   * A fresh password also lifts a lock from wrong attempts. Call it after the reset's transaction:
   * the limiter's store is not part of it (and may be Redis).
   */
  async clearPasswordLock(member: StaffRow): Promise<void> {
    await this.d.limiter.store.clear(`staff:pwfail:${member.mobileHash}`);
  }

  private async revokeSessions(id: number, db: Db) {
    await db
      .update(staffSessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(staffSessions.staffId, id), isNull(staffSessions.revokedAt)));
  }

  async findByPhone(phone: string): Promise<StaffRow | undefined> {
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
