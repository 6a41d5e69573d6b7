import type {
  AdminLeadDetail,
  AdminLeadList,
  AdminLeadListQuery,
  DeliverySummaryData,
  RetryDeadData,
} from '@lm/shared/schemas/admin-leads';
import { and, asc, count, desc, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import {
  consents,
  leadAttempts,
  leads,
  matchOffers,
  matchRuns,
  partners,
  products,
  users,
} from '../../db/schema.ts';
import type { Actor } from '../../lib/actor.ts';
import { appError } from '../../lib/errors.ts';
import { recordAudit } from '../audit/service.ts';
import {
  type AdminLeadsDeps,
  attemptItem,
  BULK_RETRY_LIMIT,
  iso,
  leadColumns,
  leadItem,
  leadQuery,
  seesAttemptDetails,
  type Tx,
} from './lead-rows.ts';
import {
  deliverySummary,
  discardRefusal,
  type LastAttempt,
  type LeadCountRow,
  retryRefusal,
  shanghaiDayRange,
  startOfShanghaiDay,
} from './rules.ts';

/** The console's leads and delivery queues (线索发送): lists, details, retries and discards, audit-logged. */
export class AdminLeadsService {
  constructor(private readonly d: AdminLeadsDeps) {}

  async listLeads(q: AdminLeadListQuery): Promise<AdminLeadList> {
    const conds: SQL[] = [];
    if (q.partnerId) conds.push(eq(leads.partnerId, q.partnerId));
    if (q.productId) conds.push(eq(leads.productId, q.productId));
    if (q.userId) conds.push(eq(leads.userId, q.userId));
    if (q.status) conds.push(eq(leads.status, q.status));
    if (q.channelCode) conds.push(eq(matchRuns.adChannelCode, q.channelCode));
    const { start, end } = shanghaiDayRange(q.from, q.to);
    if (start) conds.push(gte(leads.createdAt, start));
    if (end) conds.push(lt(leads.createdAt, end));
    const where = conds.length ? and(...conds) : undefined;

    const [{ total } = { total: 0 }] = await this.d.db
      .select({ total: count() })
      .from(leads)
      .innerJoin(consents, eq(leads.consentId, consents.id))
      .innerJoin(matchOffers, eq(consents.offerId, matchOffers.id))
      .innerJoin(matchRuns, eq(matchOffers.runId, matchRuns.id))
      .where(where);
    const col =
      q.sort === 'attempts'
        ? leads.attempts
        : q.sort === 'nextAttemptAt'
          ? leads.nextAttemptAt
          : leads.createdAt;
    const by = q.order === 'asc' ? asc : desc;
    const rows = await leadQuery(this.d.db, where)
      .orderBy(by(col), by(leads.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize);
    return { total: Number(total), page: q.page, pageSize: q.pageSize, list: rows.map(leadItem) };
  }

  /** One lead with its consent and attempts; attempt details when `opts.attemptDetails` (administrators). */
  async leadDetail(
    leadId: number,
    opts: { attemptDetails: boolean },
    db: Db = this.d.db,
  ): Promise<AdminLeadDetail> {
    const [row] = await db
      .select({
        ...leadColumns,
        idempotencyKey: leads.idempotencyKey,
        callback: leads.callback,
        userStatus: users.status,
        consent: consents,
      })
      .from(leads)
      .innerJoin(users, eq(leads.userId, users.id))
      .innerJoin(products, eq(leads.productId, products.id))
      .innerJoin(partners, eq(leads.partnerId, partners.id))
      .innerJoin(consents, eq(leads.consentId, consents.id))
      .innerJoin(matchOffers, eq(consents.offerId, matchOffers.id))
      .innerJoin(matchRuns, eq(matchOffers.runId, matchRuns.id))
      .where(eq(leads.id, leadId))
      .limit(1);
    if (!row) throw appError('NOT_FOUND', '线索不存在');
    const attempts = await db
      .select()
      .from(leadAttempts)
      .where(eq(leadAttempts.leadId, leadId))
      .orderBy(leadAttempts.id);
    const { idempotencyKey, callback, userStatus, consent: c, ...item } = row;
    return {
      ...leadItem(item),
      idempotencyKey,
      callback,
      consent: {
        id: c.id,
        agreementCode: c.agreementCode,
        agreementVersion: c.agreementVersion,
        textHash: c.textHash,
        fields: c.fields,
        createdAt: c.createdAt.toISOString(),
        withdrawnAt: iso(c.withdrawnAt),
      },
      retryable: retryRefusal({ status: row.status, consentWithdrawnAt: c.withdrawnAt, userStatus }) === null,
      attemptList: attempts.map((a) => attemptItem(a, opts.attemptDetails)),
    };
  }

  /** The lead locked for a change, with what decides whether it may be retried. */
  private async lockLead(tx: Tx, leadId: number) {
    const [lead] = await tx
      .select({
        id: leads.id,
        status: leads.status,
        attempts: leads.attempts,
        lastError: leads.lastError,
        consentId: leads.consentId,
        userId: leads.userId,
      })
      .from(leads)
      .where(eq(leads.id, leadId))
      .for('update');
    if (!lead) throw appError('NOT_FOUND', '线索不存在');
    const [c] = await tx
      .select({ withdrawnAt: consents.withdrawnAt })
      .from(consents)
      .where(eq(consents.id, lead.consentId));
    const [u] = await tx.select({ status: users.status }).from(users).where(eq(users.id, lead.userId));
    return { ...lead, consentWithdrawnAt: c?.withdrawnAt ?? null, userStatus: u?.status ?? 'cancelled' };
  }

  /** A dead letter goes back to the queue: `pending`, attempts reset, due now. */
  async retry(actor: Actor, leadId: number): Promise<AdminLeadDetail> {
    return this.d.db.transaction(async (trx) => {
      const tx = trx as unknown as Tx;
      const lead = await this.lockLead(tx, leadId);
      const refusal = retryRefusal(lead);
      if (refusal) throw appError('VALIDATION_FAILED', refusal);
      const now = new Date();
      await tx
        .update(leads)
        .set({
          status: 'pending',
          attempts: 0,
          nextAttemptAt: now,
          lockedUntil: null,
          lastError: null,
          updatedAt: now,
        })
        .where(and(eq(leads.id, leadId), eq(leads.status, 'dead')));
      await recordAudit(tx, actor, {
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
    return this.d.db.transaction(async (trx) => {
      const tx = trx as unknown as Tx;
      const lead = await this.lockLead(tx, leadId);
      const refusal = discardRefusal(lead.status);
      if (refusal) throw appError('VALIDATION_FAILED', refusal);
      await tx
        .update(leads)
        .set({ status: 'discarded', lockedUntil: null, updatedAt: new Date() })
        .where(and(eq(leads.id, leadId), eq(leads.status, 'dead')));
      await recordAudit(tx, actor, {
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
    return this.d.db.transaction(async (trx) => {
      const tx = trx as unknown as Tx;
      const [p] = await tx.select({ id: partners.id }).from(partners).where(eq(partners.id, partnerId));
      if (!p) throw appError('NOT_FOUND', '机构不存在');
      const dead = await tx
        .select({
          id: leads.id,
          status: leads.status,
          attempts: leads.attempts,
          lastError: leads.lastError,
          consentWithdrawnAt: consents.withdrawnAt,
          userStatus: users.status,
        })
        .from(leads)
        .innerJoin(consents, eq(leads.consentId, consents.id))
        .innerJoin(users, eq(leads.userId, users.id))
        .where(and(eq(leads.partnerId, partnerId), eq(leads.status, 'dead')))
        .orderBy(leads.id)
        .for('update', { of: leads });
      const eligible = dead.filter((l) => retryRefusal(l) === null);
      const batch = eligible.slice(0, BULK_RETRY_LIMIT);
      if (batch.length > 0) {
        const now = new Date();
        await tx
          .update(leads)
          .set({
            status: 'pending',
            attempts: 0,
            nextAttemptAt: now,
            lockedUntil: null,
            lastError: null,
            updatedAt: now,
          })
          .where(
            and(
              inArray(
                leads.id,
                batch.map((l) => l.id),
              ),
              eq(leads.status, 'dead'),
            ),
          );
        for (const l of batch) {
          await recordAudit(tx, actor, {
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
    const [partnerRows, countRows, lastRows] = await Promise.all([
      this.d.db
        .select({ id: partners.id, legalName: partners.legalName, status: partners.status })
        .from(partners),
      this.d.db
        .select({
          partnerId: leads.partnerId,
          status: leads.status,
          n: count(),
          dueNow:
            sql<number>`count(*) filter (where ${leads.status} = 'pending' and ${leads.nextAttemptAt} <= ${now} and (${leads.lockedUntil} is null or ${leads.lockedUntil} <= ${now}))`.mapWith(
              Number,
            ),
          leased:
            sql<number>`count(*) filter (where ${leads.status} = 'pending' and ${leads.lockedUntil} > ${now})`.mapWith(
              Number,
            ),
          deliveredToday:
            sql<number>`count(*) filter (where ${leads.status} = 'delivered' and ${leads.deliveredAt} >= ${dayStart})`.mapWith(
              Number,
            ),
          oldestPendingAt: sql<Date | null>`min(${leads.createdAt}) filter (where ${leads.status} = 'pending')`,
        })
        .from(leads)
        .groupBy(leads.partnerId, leads.status),
      this.d.db.execute(sql`
        select p.id as partner_id, la.started_at, la.outcome, la.http_status, la.error
        from partners p
        cross join lateral (
          select a.started_at, a.outcome, a.http_status, a.error
          from lead_attempts a join leads l on l.id = a.lead_id
          where l.partner_id = p.id
          order by a.id desc
          limit 1) la`),
    ]);
    const counts: LeadCountRow[] = countRows.map((r) => ({
      partnerId: r.partnerId,
      status: r.status,
      n: Number(r.n),
      dueNow: Number(r.dueNow),
      leased: Number(r.leased),
      deliveredToday: Number(r.deliveredToday),
      oldestPendingAt: r.oldestPendingAt ? new Date(r.oldestPendingAt) : null,
    }));
    const last: LastAttempt[] = rowsOf<{
      partner_id: number | string;
      started_at: Date | string;
      outcome: LastAttempt['outcome'];
      http_status: number | null;
      error: string | null;
    }>(lastRows).map((r) => ({
      partnerId: Number(r.partner_id),
      at: new Date(r.started_at),
      outcome: r.outcome,
      httpStatus: r.http_status,
      error: r.error,
    }));
    return { generatedAt: now.toISOString(), list: deliverySummary(partnerRows, counts, last, now) };
  }
}
