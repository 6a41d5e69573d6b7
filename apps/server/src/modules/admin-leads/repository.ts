import type { AdminLeadListQuery } from '@lm/shared/schemas/admin-leads';
import { and, asc, count, desc, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import {
  consents,
  leadAttempts,
  leadOutcomes,
  leads,
  matchOffers,
  matchRuns,
  partners,
  products,
  users,
} from '../../db/schema.ts';
import type { Actor } from '../../lib/actor.ts';
import { type AuditInput, recordAudit } from '../audit/service.ts';
import type { LastAttempt, LeadCountRow } from './rules.ts';

export type LeadAttemptRow = typeof leadAttempts.$inferSelect;
export type LeadOutcomeRow = typeof leadOutcomes.$inferSelect;
export type ConsentRow = typeof consents.$inferSelect;

/** Columns of a lead row in the console (masked). */
const leadColumns = {
  id: leads.id,
  userId: leads.userId,
  phoneMasked: users.mobileMasked,
  channelCode: matchRuns.adChannelCode,
  productId: leads.productId,
  productName: products.productName,
  partnerId: leads.partnerId,
  partnerName: partners.legalName,
  mode: leads.mode,
  status: leads.status,
  attempts: leads.attempts,
  nextAttemptAt: leads.nextAttemptAt,
  lastError: leads.lastError,
  partnerRef: leads.partnerRef,
  autoForm: leads.autoForm,
  outcome: leads.outcome,
  createdAt: leads.createdAt,
  deliveredAt: leads.deliveredAt,
  updatedAt: leads.updatedAt,
};

export type LeadRow = {
  [K in keyof typeof leadColumns]: (typeof leadColumns)[K]['_']['notNull'] extends true
    ? (typeof leadColumns)[K]['_']['data']
    : (typeof leadColumns)[K]['_']['data'] | null;
};

/** Leads with their person, product, lender and run, for the console (masked columns). */
export function leadQuery(db: Db, where: SQL | undefined) {
  return db
    .select({ ...leadColumns, consentId: leads.consentId })
    .from(leads)
    .innerJoin(users, eq(leads.userId, users.id))
    .innerJoin(products, eq(leads.productId, products.id))
    .innerJoin(partners, eq(leads.partnerId, partners.id))
    .innerJoin(consents, eq(leads.consentId, consents.id))
    .innerJoin(matchOffers, eq(consents.offerId, matchOffers.id))
    .innerJoin(matchRuns, eq(matchOffers.runId, matchRuns.id))
    .where(where)
    .$dynamic();
}

/** A lead with what decides whether it may be retried. */
export interface LeadForChange {
  id: number;
  status: LeadRow['status'];
  attempts: number;
  lastError: string | null;
  consentWithdrawnAt: Date | null;
  userStatus: 'active' | 'cancelled';
}

/** The console's leads and delivery queues: their queries; the rules are the service's. */
export class AdminLeadsRepository {
  constructor(private readonly db: Db) {}

  /** Runs `fn` in one transaction, with this repository bound to it. */
  transaction<T>(fn: (tx: AdminLeadsRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new AdminLeadsRepository(tx as unknown as Db)));
  }

  /** An audit entry in this repository's transaction (the change and its record commit together). */
  recordAudit(actor: Actor, input: AuditInput): Promise<void> {
    return recordAudit(this.db, actor, input);
  }

  /**
   * One page of leads (filtered; `start`/`end` bound the creation time) sorted by `q.sort` with ties
   * broken by id in the same direction, and how many match.
   */
  async listForConsole(
    q: AdminLeadListQuery,
    range: { start?: Date | undefined; end?: Date | undefined },
  ): Promise<{ total: number; rows: (LeadRow & { consentId: number })[] }> {
    const conds: SQL[] = [];
    if (q.partnerId) conds.push(eq(leads.partnerId, q.partnerId));
    if (q.productId) conds.push(eq(leads.productId, q.productId));
    if (q.userId) conds.push(eq(leads.userId, q.userId));
    if (q.status) conds.push(eq(leads.status, q.status));
    if (q.channelCode) conds.push(eq(matchRuns.adChannelCode, q.channelCode));
    if (range.start) conds.push(gte(leads.createdAt, range.start));
    if (range.end) conds.push(lt(leads.createdAt, range.end));
    const where = conds.length ? and(...conds) : undefined;

    const [{ total } = { total: 0 }] = await this.db
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
    const rows = await leadQuery(this.db, where)
      .orderBy(by(col), by(leads.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize);
    return { total: Number(total), rows };
  }

  /** One lead in full: its console columns, idempotency key, callback, person's status and consent. */
  async findLeadDetail(leadId: number) {
    const [row] = await this.db
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
    return row;
  }

  /** A lead's delivery attempts, oldest first. */
  attemptsOf(leadId: number): Promise<LeadAttemptRow[]> {
    return this.db
      .select()
      .from(leadAttempts)
      .where(eq(leadAttempts.leadId, leadId))
      .orderBy(leadAttempts.id);
  }

  /** The reports of a lead's lender (issue 47.6), oldest first. */
  outcomesOf(leadId: number): Promise<LeadOutcomeRow[]> {
    return this.db
      .select()
      .from(leadOutcomes)
      .where(eq(leadOutcomes.leadId, leadId))
      .orderBy(leadOutcomes.id);
  }

  /**
   * The lead locked (`for update`) for a change, with its consent's withdrawal and its person's status
   * (a person no longer there counts as cancelled).
   */
  async lockLead(leadId: number): Promise<LeadForChange | undefined> {
    const [lead] = await this.db
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
    if (!lead) return undefined;
    const [c] = await this.db
      .select({ withdrawnAt: consents.withdrawnAt })
      .from(consents)
      .where(eq(consents.id, lead.consentId));
    const [u] = await this.db.select({ status: users.status }).from(users).where(eq(users.id, lead.userId));
    const { consentId: _c, userId: _u, ...rest } = lead;
    return { ...rest, consentWithdrawnAt: c?.withdrawnAt ?? null, userStatus: u?.status ?? 'cancelled' };
  }

  /** Dead letters among `ids` back to the queue: pending, attempts reset, due `now`. */
  async requeueDead(ids: number[], now: Date): Promise<void> {
    await this.db
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
        and(ids.length === 1 ? eq(leads.id, ids[0]!) : inArray(leads.id, ids), eq(leads.status, 'dead')),
      );
  }

  /** A dead letter given up for good. */
  async discardDead(leadId: number, now: Date): Promise<void> {
    await this.db
      .update(leads)
      .set({ status: 'discarded', lockedUntil: null, updatedAt: now })
      .where(and(eq(leads.id, leadId), eq(leads.status, 'dead')));
  }

  async partnerExists(partnerId: number): Promise<boolean> {
    const [p] = await this.db.select({ id: partners.id }).from(partners).where(eq(partners.id, partnerId));
    return Boolean(p);
  }

  /** A partner's dead leads, by id, locked (`for update` of the leads) with what decides a retry. */
  deadLeadsOfPartnerLocked(partnerId: number): Promise<LeadForChange[]> {
    return this.db
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
  }

  /** Every partner's id, name and status. */
  partnersForSummary() {
    return this.db
      .select({ id: partners.id, legalName: partners.legalName, status: partners.status })
      .from(partners);
  }

  /**
   * Leads counted per partner and status, with those due at `now`, leased at `now`, delivered since
   * `dayStart` and the oldest pending one's creation time.
   */
  async leadCounts(now: Date, dayStart: Date): Promise<LeadCountRow[]> {
    const rows = await this.db
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
      .groupBy(leads.partnerId, leads.status);
    return rows.map((r) => ({
      partnerId: r.partnerId,
      status: r.status,
      n: Number(r.n),
      dueNow: Number(r.dueNow),
      leased: Number(r.leased),
      deliveredToday: Number(r.deliveredToday),
      oldestPendingAt: r.oldestPendingAt ? new Date(r.oldestPendingAt) : null,
    }));
  }

  /** Each partner's latest delivery attempt (partners without one are absent). */
  async lastAttempts(): Promise<LastAttempt[]> {
    const result = await this.db.execute(sql`
        select p.id as partner_id, la.started_at, la.outcome, la.http_status, la.error
        from partners p
        cross join lateral (
          select a.started_at, a.outcome, a.http_status, a.error
          from lead_attempts a join leads l on l.id = a.lead_id
          where l.partner_id = p.id
          order by a.id desc
          limit 1) la`);
    return rowsOf<{
      partner_id: number | string;
      started_at: Date | string;
      outcome: LastAttempt['outcome'];
      http_status: number | null;
      error: string | null;
    }>(result).map((r) => ({
      partnerId: Number(r.partner_id),
      at: new Date(r.started_at),
      outcome: r.outcome,
      httpStatus: r.http_status,
      error: r.error,
    }));
  }
}
