import type { StaffListQuery } from '@lm/shared/schemas/auth';
import { and, asc, count, desc, eq, ilike, inArray, isNull, ne, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { channels, staff, staffSessions } from '../../db/schema.ts';
import type { Actor } from '../../lib/actor.ts';
import { type AuditInput, recordAudit } from '../audit/service.ts';

export type StaffRow = typeof staff.$inferSelect;
export type StaffInsert = typeof staff.$inferInsert;
export type StaffSessionRow = typeof staffSessions.$inferSelect;

const SORT_COLUMNS = {
  id: staff.id,
  name: staff.name,
  role: staff.role,
  status: staff.status,
  createdAt: staff.createdAt,
  lastLoginAt: staff.lastLoginAt,
} as const;

/** Staff accounts and their console sessions: the queries; the rules are the services'. */
export class StaffRepository {
  constructor(private readonly db: Db) {}

  /** Runs `fn` in one transaction, with this repository bound to it. */
  transaction<T>(fn: (tx: StaffRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new StaffRepository(tx as unknown as Db)));
  }

  /** An audit entry in this repository's transaction (the change and its record commit together). */
  recordAudit(actor: Actor, input: AuditInput): Promise<void> {
    return recordAudit(this.db, actor, input);
  }

  /** Inserts an account, or (same phone hash) updates the existing one with `onConflict`. */
  async upsertByPhoneHash(values: StaffInsert, onConflict: Partial<StaffInsert>): Promise<StaffRow> {
    const [row] = await this.db
      .insert(staff)
      .values(values)
      .onConflictDoUpdate({ target: staff.mobileHash, set: onConflict })
      .returning();
    return row!;
  }

  /** Which of these channel codes exist. */
  async existingChannelCodes(codes: readonly string[]): Promise<string[]> {
    const found = await this.db
      .select({ code: channels.adChannelCode })
      .from(channels)
      .where(inArray(channels.adChannelCode, [...codes]));
    return found.map((f) => f.code);
  }

  /**
   * One page of accounts: by role and status, and by `keyword` as part of the name or (when
   * `keywordPhoneHash` is given) the exact phone; sorted by `q.sort`, ties by id ascending.
   */
  async listForConsole(
    q: StaffListQuery,
    keywordPhoneHash: string | null,
  ): Promise<{ total: number; rows: StaffRow[] }> {
    const conds: (SQL | undefined)[] = [
      q.role ? eq(staff.role, q.role) : undefined,
      q.status ? eq(staff.status, q.status) : undefined,
    ];
    if (q.keyword) {
      const pattern = `%${q.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      conds.push(
        keywordPhoneHash !== null
          ? or(ilike(staff.name, pattern), eq(staff.mobileHash, keywordPhoneHash))
          : ilike(staff.name, pattern),
      );
    }
    const where = and(...conds);
    const column = SORT_COLUMNS[q.sort];
    const [rows, [total]] = await Promise.all([
      this.db
        .select()
        .from(staff)
        .where(where)
        .orderBy(q.order === 'asc' ? asc(column) : desc(column), asc(staff.id))
        .limit(q.pageSize)
        .offset((q.page - 1) * q.pageSize),
      this.db.select({ n: count() }).from(staff).where(where),
    ]);
    return { total: total?.n ?? 0, rows };
  }

  async findById(id: number): Promise<StaffRow | undefined> {
    const [row] = await this.db.select().from(staff).where(eq(staff.id, id)).limit(1);
    return row;
  }

  async findByPhoneHash(phoneHash: string): Promise<StaffRow | undefined> {
    const [row] = await this.db.select().from(staff).where(eq(staff.mobileHash, phoneHash)).limit(1);
    return row;
  }

  /** Active administrators other than `id`. */
  async countOtherActiveAdmins(id: number): Promise<number> {
    const [other] = await this.db
      .select({ n: count() })
      .from(staff)
      .where(and(eq(staff.role, 'admin'), eq(staff.status, 'active'), ne(staff.id, id)));
    return other?.n ?? 0;
  }

  async update(id: number, values: Partial<StaffInsert>): Promise<StaffRow> {
    const [after] = await this.db.update(staff).set(values).where(eq(staff.id, id)).returning();
    return after!;
  }

  /** Ends every session of the account not ended yet. */
  async revokeSessionsOf(staffId: number, at: Date): Promise<void> {
    await this.db
      .update(staffSessions)
      .set({ revokedAt: at })
      .where(and(eq(staffSessions.staffId, staffId), isNull(staffSessions.revokedAt)));
  }

  async insertSession(values: typeof staffSessions.$inferInsert): Promise<void> {
    await this.db.insert(staffSessions).values(values);
  }

  /** The session with this token hash and its account. */
  async findSessionByTokenHash(
    tokenHash: string,
  ): Promise<{ session: StaffSessionRow; staff: StaffRow } | undefined> {
    const [row] = await this.db
      .select({ session: staffSessions, staff })
      .from(staffSessions)
      .innerJoin(staff, eq(staff.id, staffSessions.staffId))
      .where(eq(staffSessions.tokenHash, tokenHash))
      .limit(1);
    return row;
  }

  async revokeSession(sessionId: number, at: Date): Promise<void> {
    await this.db.update(staffSessions).set({ revokedAt: at }).where(eq(staffSessions.id, sessionId));
  }
}
