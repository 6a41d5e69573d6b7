import type { AdminNoticeItem, AdminNoticeListQuery } from '@lm/shared/schemas/privacy';
import { and, asc, count, desc, eq, gte, isNull, lt, ne, or, sql } from 'drizzle-orm';
import { partnerNotices, partners, users } from '../../db/schema.ts';
import type { Actor } from '../../lib/actor.ts';
import { appError } from '../../lib/errors.ts';
import { recordAudit } from '../audit/service.ts';
import { isOverdue, workingDaysLeft } from './rules.ts';

import type { PrivacyDeps } from './service.ts';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/**
 * The console's side of privacy (/admin/privacy/deletions): the notices sent to lenders (withdrawals,
 * deletion requests) with their deadlines, and a re-queue of a failed notice, audit-logged.
 */
export class AdminNoticesService {
  constructor(private readonly d: Pick<PrivacyDeps, 'db'>) {}

  async adminNotices(q: AdminNoticeListQuery, now = new Date()) {
    const conds = [eq(partnerNotices.kind, q.kind)];
    if (q.status) conds.push(eq(partnerNotices.status, q.status));
    if (q.overdue === true) {
      conds.push(ne(partnerNotices.status, 'confirmed'), lt(partnerNotices.dueAt, now));
    } else if (q.overdue === false) {
      conds.push(
        or(
          eq(partnerNotices.status, 'confirmed'),
          isNull(partnerNotices.dueAt),
          gte(partnerNotices.dueAt, now),
        )!,
      );
    }
    const where = and(...conds);
    const [{ total } = { total: 0 }] = await this.d.db
      .select({ total: count() })
      .from(partnerNotices)
      .where(where);
    const rows = await this.noticeRows(where)
      .orderBy(
        sql`case when ${partnerNotices.status} = 'confirmed' then 1 else 0 end`,
        asc(partnerNotices.dueAt),
        desc(partnerNotices.id),
      )
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize);
    return { total: Number(total), list: rows.map((r) => this.adminItem(r, now)) };
  }

  private noticeRows(where: ReturnType<typeof and>) {
    return this.d.db
      .select({
        id: partnerNotices.id,
        userId: partnerNotices.userId,
        phoneMasked: users.mobileMasked,
        partnerName: partners.legalName,
        kind: partnerNotices.kind,
        status: partnerNotices.status,
        createdAt: partnerNotices.createdAt,
        dueAt: partnerNotices.dueAt,
        confirmedAt: partnerNotices.confirmedAt,
        attempts: partnerNotices.attempts,
        lastError: partnerNotices.lastError,
      })
      .from(partnerNotices)
      .innerJoin(users, eq(partnerNotices.userId, users.id))
      .innerJoin(partners, eq(partnerNotices.partnerId, partners.id))
      .where(where)
      .$dynamic();
  }

  private adminItem(
    r: {
      id: number;
      userId: number;
      phoneMasked: string;
      partnerName: string;
      kind: 'withdrawal' | 'deletion';
      status: 'pending' | 'sent' | 'confirmed' | 'dead';
      createdAt: Date;
      dueAt: Date | null;
      confirmedAt: Date | null;
      attempts: number;
      lastError: string | null;
    },
    now: Date,
  ): AdminNoticeItem {
    return {
      id: r.id,
      userId: r.userId,
      phoneMasked: r.phoneMasked,
      partnerName: r.partnerName,
      kind: r.kind,
      status: r.status,
      createdAt: r.createdAt.toISOString(),
      dueAt: iso(r.dueAt),
      overdue: isOverdue(r, now),
      workingDaysLeft: r.dueAt && r.status !== 'confirmed' ? workingDaysLeft(now, r.dueAt) : null,
      confirmedAt: iso(r.confirmedAt),
      attempts: r.attempts,
      lastError: r.lastError,
    };
  }

  /**
   * Sends a notice again: a dead one (any kind), or a deletion the lender acknowledged but has not
   * confirmed (a reminder; same idempotency key). Attempts count again from zero.
   */
  /** `actor`: the staff member; the re-queue is written to the audit log in its transaction. */
  async retryNotice(id: number, actor: Actor, now = new Date()): Promise<AdminNoticeItem> {
    const [n] = await this.d.db
      .select({ status: partnerNotices.status, kind: partnerNotices.kind })
      .from(partnerNotices)
      .where(eq(partnerNotices.id, id))
      .limit(1);
    if (!n) throw appError('NOT_FOUND', '通知不存在');
    const retriable = n.status === 'dead' || (n.status === 'sent' && n.kind === 'deletion');
    if (!retriable) {
      throw appError(
        'VALIDATION_FAILED',
        n.status === 'confirmed' ? '机构已确认，无需重发' : '该通知正在发送中，无需重发',
      );
    }
    await this.d.db.transaction(async (tx) => {
      await tx
        .update(partnerNotices)
        .set({ status: 'pending', attempts: 0, nextAttemptAt: now, lockedUntil: null, updatedAt: now })
        .where(and(eq(partnerNotices.id, id), eq(partnerNotices.status, n.status)));
      await recordAudit(tx, actor, {
        action: 'retry',
        entity: 'notice',
        entityId: id,
        before: { kind: n.kind, status: n.status },
        after: { kind: n.kind, status: 'pending' },
      });
    });
    const [row] = await this.noticeRows(eq(partnerNotices.id, id));
    return this.adminItem(row!, now);
  }
}
