import type { AdminNoticeItem, AdminNoticeListQuery } from '@lm/shared/schemas/privacy';
import type { Actor } from '../../lib/actor.ts';
import { appError } from '../../lib/errors.ts';
import { recordAudit } from '../audit/service.ts';
import type { PrivacyRepository } from './repository.ts';
import { isOverdue, workingDaysLeft } from './rules.ts';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/**
 * The console's side of privacy (/admin/privacy/deletions): the notices sent to lenders (withdrawals,
 * deletion requests) with their deadlines, and a re-queue of a failed notice, audit-logged.
 */
export class AdminNoticesService {
  constructor(private readonly d: { repo: PrivacyRepository }) {}

  async adminNotices(q: AdminNoticeListQuery, now = new Date()) {
    const { total, rows } = await this.d.repo.noticePage(q, now);
    return { total, list: rows.map((r) => this.adminItem(r, now)) };
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
    const n = await this.d.repo.noticeState(id);
    if (!n) throw appError('NOT_FOUND', '通知不存在');
    const retriable = n.status === 'dead' || (n.status === 'sent' && n.kind === 'deletion');
    if (!retriable) {
      throw appError(
        'VALIDATION_FAILED',
        n.status === 'confirmed' ? '机构已确认，无需重发' : '该通知正在发送中，无需重发',
      );
    }
    await this.d.repo.transaction(async (tx) => {
      await tx.requeueNotice(id, n.status, now);
      await recordAudit(tx.handle, actor, {
        action: 'retry',
        entity: 'notice',
        entityId: id,
        before: { kind: n.kind, status: n.status },
        after: { kind: n.kind, status: 'pending' },
      });
    });
    const row = await this.d.repo.noticeRow(id);
    return this.adminItem(row!, now);
  }
}
