import type { AuditEntry, auditLogQuery } from '@lm/shared/schemas/admin';
import type { AuditFacets } from '@lm/shared/schemas/admin-leads';
import type { z } from 'zod';
import { appError } from '../../lib/errors.ts';
import type { AuditRepository } from '../audit/repository.ts';
import { shanghaiDayRange } from './rules.ts';

type AuditLogQuery = z.infer<typeof auditLogQuery>;

/** 操作日志: every change and reveal, filterable (the entries are written by modules/audit). */
export class AuditLogQueries {
  constructor(private readonly d: { repo: AuditRepository }) {}

  async list(q: AuditLogQuery) {
    if (q.sort !== undefined && q.sort !== 'createdAt' && q.sort !== 'id') {
      throw appError('VALIDATION_FAILED', '排序字段只能是 createdAt 或 id');
    }
    const { start, end } = shanghaiDayRange(q.from, q.to);
    const { total, rows } = await this.d.repo.listForConsole(
      { entity: q.entity, entityId: q.entityId, staffId: q.staffId, action: q.action, start, end },
      q.sort === 'id' ? 'id' : 'createdAt',
      q.order === 'asc' ? 'asc' : 'desc',
      q,
    );
    const list: AuditEntry[] = rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
    return { total, page: q.page, pageSize: q.pageSize, list };
  }

  async facets(): Promise<AuditFacets> {
    const [staffRows, actionRows, entityRows] = await this.d.repo.facets();
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
