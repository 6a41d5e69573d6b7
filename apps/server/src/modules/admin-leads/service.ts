import type {
  AdminLeadDetail,
  AdminLeadList,
  AdminLeadListQuery,
  DeliverySummaryData,
  RetryDeadData,
} from '@lm/shared/schemas/admin-leads';
import { startOfShanghaiDay } from '@lm/shared/time';
import type { Actor } from '../../lib/actor.ts';
import { appError } from '../../lib/errors.ts';
import {
  attemptItem,
  BULK_RETRY_LIMIT,
  consentEvidence,
  leadItem,
  outcomeItem,
  seesAttemptDetails,
} from './lead-rows.ts';
import type { AdminLeadsRepository } from './repository.ts';
import { deliverySummary, discardRefusal, retryRefusal, shanghaiDayRange } from './rules.ts';

export interface AdminLeadsDeps {
  repo: AdminLeadsRepository;
}

/** The console's leads and delivery queues (线索发送): lists, details, retries and discards, audit-logged. */
export class AdminLeadsService {
  constructor(private readonly d: AdminLeadsDeps) {}

  async listLeads(q: AdminLeadListQuery): Promise<AdminLeadList> {
    const { total, rows } = await this.d.repo.listForConsole(q, shanghaiDayRange(q.from, q.to));
    return { total, page: q.page, pageSize: q.pageSize, list: rows.map(leadItem) };
  }

  /** One lead with its consent and attempts; attempt details when `opts.attemptDetails` (administrators). */
  async leadDetail(
    leadId: number,
    opts: { attemptDetails: boolean },
    repo: AdminLeadsRepository = this.d.repo,
  ): Promise<AdminLeadDetail> {
    const row = await repo.findLeadDetail(leadId);
    if (!row) throw appError('NOT_FOUND', '线索不存在');
    const [attempts, outcomes] = await Promise.all([repo.attemptsOf(leadId), repo.outcomesOf(leadId)]);
    const { idempotencyKey, callback, userStatus, consent: c, ...item } = row;
    return {
      ...leadItem(item),
      idempotencyKey,
      callback,
      consent: consentEvidence(c),
      retryable: retryRefusal({ status: row.status, consentWithdrawnAt: c.withdrawnAt, userStatus }) === null,
      attemptList: attempts.map((a) => attemptItem(a, opts.attemptDetails)),
      outcomeList: outcomes.map(outcomeItem),
    };
  }

  /** The lead locked for a change, with what decides whether it may be retried. */
  private async lockLead(tx: AdminLeadsRepository, leadId: number) {
    const lead = await tx.lockLead(leadId);
    if (!lead) throw appError('NOT_FOUND', '线索不存在');
    return lead;
  }

  /** A dead letter goes back to the queue: `pending`, attempts reset, due now. */
  async retry(actor: Actor, leadId: number): Promise<AdminLeadDetail> {
    return this.d.repo.transaction(async (tx) => {
      const lead = await this.lockLead(tx, leadId);
      const refusal = retryRefusal(lead);
      if (refusal) throw appError('VALIDATION_FAILED', refusal);
      const now = new Date();
      await tx.requeueDead([leadId], now);
      await tx.recordAudit(actor, {
        action: 'retry',
        entity: 'lead',
        entityId: leadId,
        before: { status: lead.status, attempts: lead.attempts, lastError: lead.lastError },
        after: { status: 'pending', attempts: 0, lastError: null },
      });
      return this.leadDetail(leadId, { attemptDetails: seesAttemptDetails(actor) }, tx);
    });
  }

  /** A dead letter is given up for good: `discarded`, never sent. */
  async discard(actor: Actor, leadId: number, reason: string): Promise<AdminLeadDetail> {
    return this.d.repo.transaction(async (tx) => {
      const lead = await this.lockLead(tx, leadId);
      const refusal = discardRefusal(lead.status);
      if (refusal) throw appError('VALIDATION_FAILED', refusal);
      await tx.discardDead(leadId, new Date());
      await tx.recordAudit(actor, {
        action: 'discard',
        entity: 'lead',
        entityId: leadId,
        before: { status: lead.status, attempts: lead.attempts, lastError: lead.lastError },
        after: { status: 'discarded' },
        reason,
      });
      return this.leadDetail(leadId, { attemptDetails: seesAttemptDetails(actor) }, tx);
    });
  }

  /**
   * Every dead lead of a partner whose consent is still in force goes back to the queue (at most
   * BULK_RETRY_LIMIT per call), each audit-logged. Dead leads of withdrawn consents or cancelled
   * accounts are skipped.
   */
  async retryDead(actor: Actor, partnerId: number): Promise<RetryDeadData> {
    return this.d.repo.transaction(async (tx) => {
      if (!(await tx.partnerExists(partnerId))) throw appError('NOT_FOUND', '机构不存在');
      const dead = await tx.deadLeadsOfPartnerLocked(partnerId);
      const eligible = dead.filter((l) => retryRefusal(l) === null);
      const batch = eligible.slice(0, BULK_RETRY_LIMIT);
      if (batch.length > 0) {
        const now = new Date();
        await tx.requeueDead(
          batch.map((l) => l.id),
          now,
        );
        for (const l of batch) {
          await tx.recordAudit(actor, {
            action: 'retry',
            entity: 'lead',
            entityId: l.id,
            before: { status: l.status, attempts: l.attempts, lastError: l.lastError },
            after: { status: 'pending', attempts: 0, lastError: null, bulk: true, partnerId },
          });
        }
      }
      return {
        retried: batch.length,
        skipped: dead.length - eligible.length,
        remaining: eligible.length - batch.length,
      };
    });
  }

  async summary(now = new Date()): Promise<DeliverySummaryData> {
    const dayStart = startOfShanghaiDay(now);
    const [partnerRows, counts, last] = await Promise.all([
      this.d.repo.partnersForSummary(),
      this.d.repo.leadCounts(now, dayStart),
      this.d.repo.lastAttempts(),
    ]);
    return { generatedAt: now.toISOString(), list: deliverySummary(partnerRows, counts, last, now) };
  }
}
