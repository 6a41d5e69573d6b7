import { and, asc, count, desc, eq, gte, isNotNull, lt, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { auditLog } from '../../db/schema.ts';

export type AuditRow = typeof auditLog.$inferSelect;
export type AuditInsert = typeof auditLog.$inferInsert;

export interface AuditFilter {
  entity?: string | undefined;
  entityId?: string | undefined;
  staffId?: number | undefined;
  action?: string | undefined;
  /** Entries at or after `start` and before `end`. */
  start?: Date | null | undefined;
  end?: Date | null | undefined;
}

/** The audit log (`audit_log`): entries written by every module, read by the console. */
export class AuditRepository {
  constructor(private readonly db: Db) {}

  async insert(entry: AuditInsert): Promise<void> {
    await this.db.insert(auditLog).values(entry);
  }

  /** One page of entries sorted by `sort` (ties broken by id in the same direction), and how many match. */
  async listForConsole(
    filter: AuditFilter,
    sort: 'createdAt' | 'id',
    order: 'asc' | 'desc',
    page: { page: number; pageSize: number },
  ): Promise<{ total: number; rows: AuditRow[] }> {
    const conds: SQL[] = [];
    if (filter.entity) conds.push(eq(auditLog.entity, filter.entity));
    if (filter.entityId) conds.push(eq(auditLog.entityId, filter.entityId));
    if (filter.staffId) conds.push(eq(auditLog.staffId, filter.staffId));
    if (filter.action) conds.push(eq(auditLog.action, filter.action));
    if (filter.start) conds.push(gte(auditLog.createdAt, filter.start));
    if (filter.end) conds.push(lt(auditLog.createdAt, filter.end));
    const where = conds.length ? and(...conds) : undefined;
    const [{ total } = { total: 0 }] = await this.db.select({ total: count() }).from(auditLog).where(where);
    const by = order === 'asc' ? asc : desc;
    const rows = await this.db
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(sort === 'id' ? by(auditLog.id) : by(auditLog.createdAt), by(auditLog.id))
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize);
    return { total: Number(total), rows };
  }

  /** The distinct staff (id, name) with entries, and the distinct actions and entities (sorted). */
  facets() {
    return Promise.all([
      this.db
        .selectDistinct({ id: auditLog.staffId, name: auditLog.staffName })
        .from(auditLog)
        .where(isNotNull(auditLog.staffId)),
      this.db.selectDistinct({ v: auditLog.action }).from(auditLog).orderBy(auditLog.action),
      this.db.selectDistinct({ v: auditLog.entity }).from(auditLog).orderBy(auditLog.entity),
    ]);
  }
}
