import type { AuditEntry, auditLogQuery } from '@lm/shared/schemas/admin';
import type { AuditFacets } from '@lm/shared/schemas/admin-leads';
import { and, asc, count, desc, eq, gte, isNotNull, lt, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { auditLog } from '../../db/schema.ts';
import { appError } from '../../lib/errors.ts';
import { shanghaiDayRange } from './rules.ts';

type AuditLogQuery = z.infer<typeof auditLogQuery>;

/** 操作日志: every change and reveal, filterable (the entries are written by modules/audit). */
export class AuditLogQueries {
  constructor(private readonly d: { db: Db }) {}

  async list(q: AuditLogQuery) {
    const conds: SQL[] = [];
    if (q.entity) conds.push(eq(auditLog.entity, q.entity));
    if (q.entityId) conds.push(eq(auditLog.entityId, q.entityId));
    if (q.staffId) conds.push(eq(auditLog.staffId, q.staffId));
    if (q.action) conds.push(eq(auditLog.action, q.action));
    const { start, end } = shanghaiDayRange(q.from, q.to);
    if (start) conds.push(gte(auditLog.createdAt, start));
    if (end) conds.push(lt(auditLog.createdAt, end));
    const where = conds.length ? and(...conds) : undefined;
    if (q.sort !== undefined && q.sort !== 'createdAt' && q.sort !== 'id') {
      throw appError('VALIDATION_FAILED', '排序字段只能是 createdAt 或 id');
    }
    const [{ total } = { total: 0 }] = await this.d.db.select({ total: count() }).from(auditLog).where(where);
    const by = q.order === 'asc' ? asc : desc;
    const rows = await this.d.db
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(q.sort === 'id' ? by(auditLog.id) : by(auditLog.createdAt), by(auditLog.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize);
    const list: AuditEntry[] = rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
    return { total: Number(total), page: q.page, pageSize: q.pageSize, list };
  }

  async facets(): Promise<AuditFacets> {
    const [staffRows, actionRows, entityRows] = await Promise.all([
      this.d.db
        .selectDistinct({ id: auditLog.staffId, name: auditLog.staffName })
        .from(auditLog)
        .where(isNotNull(auditLog.staffId)),
      this.d.db.selectDistinct({ v: auditLog.action }).from(auditLog).orderBy(auditLog.action),
      this.d.db.selectDistinct({ v: auditLog.entity }).from(auditLog).orderBy(auditLog.entity),
    ]);
    // A staff member renamed since appears once (one of their names).
    const staff = new Map<number, string>();
    for (const s of staffRows) if (s.id !== null) staff.set(s.id, s.name);
    return {
      staff: [...staff].map(([id, name]) => ({ id, name })).sort((a, b) => a.id - b.id),
      actions: actionRows.map((r) => r.v),
      entities: entityRows.map((r) => r.v),
    };
  }
}
