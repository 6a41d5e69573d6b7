import type { AuditEntry, auditLogQuery } from '@lm/shared/schemas/admin';
import type {
  AdminLeadDetail,
  AdminLeadItem,
  AdminLeadList,
  AdminLeadListQuery,
  AdminRevealData,
  AdminUserDetail,
  AdminUserList,
  AdminUserListQuery,
  AuditFacets,
  DeliverySummaryData,
  RetryDeadData,
  RevealField,
} from '@lm/shared/schemas/admin-leads';
import { and, asc, count, desc, eq, gte, inArray, isNotNull, lt, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { type Db, rowsOf } from '../../db/client.ts';
import {
  applicationDrafts,
  auditLog,
  consents,
  creditProfiles,
  leadAttempts,
  leads,
  matchOffers,
  matchRuns,
  partnerNotices,
  partners,
  products,
  sessions,
  users,
} from '../../db/schema.ts';
import type { Actor } from '../../lib/actor.ts';
import { decryptField, type KeyRing } from '../../lib/crypto.ts';
import { appError } from '../../lib/errors.ts';
import { recordAudit } from '../audit/service.ts';
import { maskIp } from '../privacy/rules.ts';
import {
  contactsOf,
  deliverySummary,
  discardRefusal,
  excludedWithNames,
  type LastAttempt,
  type LeadCountRow,
  leadCountsByUser,
  maskContacts,
  maskDraft,
  retryRefusal,
  shanghaiDayRange,
  startOfShanghaiDay,
} from './rules.ts';

export interface AdminLeadsDeps {
  db: Db;
  ring: KeyRing;
  phoneIndex(phone: string): string;
}

type AuditLogQuery = z.infer<typeof auditLogQuery>;
/** A transaction handle (drizzle's transaction has the query API of the database). */
type Tx = Db;

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const RUN_LIMIT = 50;
const SESSION_LIMIT = 20;
/** Dead leads put back per bulk call (each is audit-logged in the same transaction). */
export const BULK_RETRY_LIMIT = 1000;

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
  createdAt: leads.createdAt,
  deliveredAt: leads.deliveredAt,
  updatedAt: leads.updatedAt,
};

type LeadRow = {
  [K in keyof typeof leadColumns]: (typeof leadColumns)[K]['_']['notNull'] extends true
    ? (typeof leadColumns)[K]['_']['data']
    : (typeof leadColumns)[K]['_']['data'] | null;
};

function leadItem({ consentId: _consent, ...r }: LeadRow & { consentId?: number }): AdminLeadItem {
  return {
    ...r,
    nextAttemptAt: r.nextAttemptAt.toISOString(),
    createdAt: r.createdAt.toISOString(),
    deliveredAt: iso(r.deliveredAt),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/**
 * Whether a staff member sees the details of delivery attempts (why each one failed): administrators
 * only (ADR 019); other roles see the outcome and the HTTP status.
 */
export function seesAttemptDetails(actor: Actor): boolean {
  return actor.staff?.role === 'admin';
}

/** One delivery attempt for the console; `details` only for administrators. */
function attemptItem(a: typeof leadAttempts.$inferSelect, details: boolean) {
  return {
    id: a.id,
    attempt: a.attempt,
    startedAt: a.startedAt.toISOString(),
    durationMs: a.durationMs,
    httpStatus: a.httpStatus,
    outcome: a.outcome,
    error: details ? a.error : null,
  };
}

/**
 * The console's people, leads, delivery queues and audit log (issue 7 part 3). Lists show masked
 * values only; `reveal` decrypts one field for a staff member who gave a reason and records who,
 * which field, why and when — never the value.
 */
export class AdminLeadsService {
  constructor(private readonly d: AdminLeadsDeps) {}

  private decryptJson(enc: string | null | undefined): Record<string, unknown> | null {
    if (!enc) return null;
    try {
      const v: unknown = JSON.parse(decryptField(this.d.ring, enc));
      return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  }

  // -------------------------------------------------------------------------------------------
  // People

  async listUsers(q: AdminUserListQuery): Promise<AdminUserList> {
    const conds: SQL[] = [];
    if (q.phone) conds.push(eq(users.mobileHash, this.d.phoneIndex(q.phone)));
    if (q.channelCode) conds.push(eq(users.adChannelCode, q.channelCode));
    if (q.status) conds.push(eq(users.status, q.status));
    if (q.userInfoStatus !== undefined) conds.push(eq(users.userInfoStatus, q.userInfoStatus));
    const { start, end } = shanghaiDayRange(q.from, q.to);
    if (start) conds.push(gte(users.createdAt, start));
    if (end) conds.push(lt(users.createdAt, end));
    const where = conds.length ? and(...conds) : undefined;

    const [{ total } = { total: 0 }] = await this.d.db.select({ total: count() }).from(users).where(where);
    const col = q.sort === 'lastLoginAt' ? users.lastLoginAt : users.createdAt;
    const dir = q.order === 'asc' ? sql`asc` : sql`desc`;
    const rows = await this.d.db
      .select()
      .from(users)
      .where(where)
      .orderBy(sql`${col} ${dir} nulls last`, q.order === 'asc' ? asc(users.id) : desc(users.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize);
    const ids = rows.map((r) => r.id);
    const [consentCounts, leadRows] = ids.length
      ? await Promise.all([
          this.d.db
            .select({ userId: consents.userId, n: count() })
            .from(consents)
            .where(inArray(consents.userId, ids))
            .groupBy(consents.userId),
          this.d.db
            .select({ userId: leads.userId, status: leads.status, n: count() })
            .from(leads)
            .where(inArray(leads.userId, ids))
            .groupBy(leads.userId, leads.status),
        ])
      : [[], []];
    const leadCounts = leadCountsByUser(leadRows);
    return {
      total: Number(total),
      page: q.page,
      pageSize: q.pageSize,
      list: rows.map((u) => ({
        id: u.id,
        phoneMasked: u.mobileMasked,
        channelCode: u.adChannelCode,
        status: u.status,
        userInfoStatus: u.userInfoStatus,
        formSubmitted: u.userInfoStatus >= 1,
        consents: Number(consentCounts.find((c) => c.userId === u.id)?.n ?? 0),
        leads: leadCounts.get(u.id) ?? {},
        createdAt: u.createdAt.toISOString(),
        lastLoginAt: iso(u.lastLoginAt),
      })),
    };
  }

  /** One person in full (masked); attempt details when `opts.attemptDetails` (administrators). */
  async userDetail(userId: number, opts: { attemptDetails: boolean }): Promise<AdminUserDetail> {
    const db = this.d.db;
    const [u] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
    if (!u) throw appError('NOT_FOUND', '用户不存在');
    const [draft, credit, runs, consentRows, leadRows, noticeRows, sessionRows] = await Promise.all([
      db.select().from(applicationDrafts).where(eq(applicationDrafts.userId, userId)).limit(1),
      db.select().from(creditProfiles).where(eq(creditProfiles.userId, userId)).limit(1),
      db
        .select()
        .from(matchRuns)
        .where(eq(matchRuns.userId, userId))
        .orderBy(desc(matchRuns.createdAt), desc(matchRuns.id))
        .limit(RUN_LIMIT),
      db
        .select({ c: consents, productName: products.productName, partnerName: partners.legalName })
        .from(consents)
        .innerJoin(products, eq(consents.productId, products.id))
        .innerJoin(partners, eq(consents.partnerId, partners.id))
        .where(eq(consents.userId, userId))
        .orderBy(desc(consents.id)),
      this.leadQuery(eq(leads.userId, userId)).orderBy(desc(leads.id)),
      db
        .select({ n: partnerNotices, partnerName: partners.legalName })
        .from(partnerNotices)
        .innerJoin(partners, eq(partnerNotices.partnerId, partners.id))
        .where(eq(partnerNotices.userId, userId))
        .orderBy(desc(partnerNotices.id)),
      db
        .select()
        .from(sessions)
        .where(eq(sessions.userId, userId))
        .orderBy(desc(sessions.id))
        .limit(SESSION_LIMIT),
    ]);
    const runIds = runs.map((r) => r.id);
    const leadIds = leadRows.map((l) => l.id);
    const [offers, attempts] = await Promise.all([
      runIds.length
        ? db
            .select({ o: matchOffers, productName: products.productName, partnerName: partners.legalName })
            .from(matchOffers)
            .innerJoin(products, eq(matchOffers.productId, products.id))
            .innerJoin(partners, eq(matchOffers.partnerId, partners.id))
            .where(inArray(matchOffers.runId, runIds))
            .orderBy(matchOffers.runId, matchOffers.rank, matchOffers.id)
        : [],
      leadIds.length
        ? db.select().from(leadAttempts).where(inArray(leadAttempts.leadId, leadIds)).orderBy(leadAttempts.id)
        : [],
    ]);
    const excludedIds = [
      ...new Set(runs.flatMap((r) => r.excluded.map((e) => Number(e.productId)).filter(Number.isInteger))),
    ];
    const names = new Map(
      excludedIds.length
        ? (
            await db
              .select({ id: products.id, name: products.productName })
              .from(products)
              .where(inArray(products.id, excludedIds))
          ).map((p) => [String(p.id), p.name])
        : [],
    );

    const draftData = this.decryptJson(draft[0]?.dataEnc);
    const creditData = this.decryptJson(credit[0]?.dataEnc);
    return {
      user: {
        id: u.id,
        phoneMasked: u.mobileMasked,
        channelCode: u.adChannelCode,
        status: u.status,
        userInfoStatus: u.userInfoStatus,
        coverStatus: u.coverStatus,
        abTestType: u.abTestType,
        isFormReq: u.isFormReq,
        createdAt: u.createdAt.toISOString(),
        lastLoginAt: iso(u.lastLoginAt),
        cancelledAt: iso(u.cancelledAt),
      },
      draft:
        draft[0] && draftData
          ? { ...maskDraft(draftData), updatedAt: draft[0].updatedAt.toISOString() }
          : null,
      credit: credit[0]
        ? {
            auditStatus: credit[0].auditStatus,
            contacts: maskContacts(contactsOf(creditData)),
            updatedAt: credit[0].updatedAt.toISOString(),
          }
        : null,
      runs: runs.map((r) => ({
        id: r.id,
        createdAt: r.createdAt.toISOString(),
        source: r.source,
        matchType: r.matchType,
        directMatchType: r.directMatchType,
        channelCode: r.adChannelCode,
        applyStatus: r.applyStatus,
        excludedCount: r.excluded.length,
        excluded: excludedWithNames(r.excluded, names),
        offers: offers
          .filter((o) => o.o.runId === r.id)
          .map(({ o, productName, partnerName }) => ({
            id: o.id,
            productId: o.productId,
            productName,
            partnerName,
            rank: o.rank,
            status: o.status,
            createdAt: o.createdAt.toISOString(),
            decidedAt: iso(o.decidedAt),
          })),
      })),
      consents: consentRows.map(({ c, productName, partnerName }) => ({
        id: c.id,
        offerId: c.offerId,
        productName,
        partnerName,
        agreementCode: c.agreementCode,
        agreementVersion: c.agreementVersion,
        textHash: c.textHash,
        fields: c.fields,
        createdAt: c.createdAt.toISOString(),
        withdrawnAt: iso(c.withdrawnAt),
      })),
      leads: leadRows.map((l) => ({
        ...leadItem(l),
        consentId: l.consentId,
        attemptList: attempts
          .filter((a) => a.leadId === l.id)
          .map((a) => attemptItem(a, opts.attemptDetails)),
      })),
      notices: noticeRows.map(({ n, partnerName }) => ({
        id: n.id,
        partnerName,
        kind: n.kind,
        status: n.status,
        attempts: n.attempts,
        createdAt: n.createdAt.toISOString(),
        dueAt: iso(n.dueAt),
        sentAt: iso(n.sentAt),
        confirmedAt: iso(n.confirmedAt),
        lastError: n.lastError,
      })),
      sessions: sessionRows.map((s) => ({
        id: s.id,
        createdAt: s.createdAt.toISOString(),
        expiresAt: s.expiresAt.toISOString(),
        revokedAt: iso(s.revokedAt),
        revokeReason: s.revokeReason,
        ip: maskIp(s.ip),
        userAgent: s.userAgent,
      })),
    };
  }

  /**
   * Decrypts one field of a person for the staff member acting, and writes the audit entry (who,
   * which field, the reason) in the same transaction. The value itself is never recorded or logged.
   */
  async reveal(actor: Actor, userId: number, field: RevealField, reason: string): Promise<AdminRevealData> {
    return this.d.db.transaction(async (trx) => {
      const tx = trx as unknown as Tx;
      const [u] = await tx
        .select({ id: users.id, mobileEnc: users.mobileEnc, status: users.status })
        .from(users)
        .where(eq(users.id, userId))
        .limit(1);
      if (!u) throw appError('NOT_FOUND', '用户不存在');
      let out: AdminRevealData;
      if (field === 'mobile') {
        if (!u.mobileEnc) throw appError('NOT_FOUND', '该用户已注销，手机号已删除');
        out = { field, value: decryptField(this.d.ring, u.mobileEnc), contacts: null };
      } else if (field === 'contacts') {
        const [row] = await tx
          .select({ dataEnc: creditProfiles.dataEnc })
          .from(creditProfiles)
          .where(eq(creditProfiles.userId, userId))
          .limit(1);
        const contacts = contactsOf(this.decryptJson(row?.dataEnc)).filter((c) => c.name || c.phone);
        if (contacts.length === 0) throw appError('NOT_FOUND', '该用户没有填写紧急联系人');
        out = { field, value: null, contacts };
      } else {
        const [row] = await tx
          .select({ dataEnc: applicationDrafts.dataEnc })
          .from(applicationDrafts)
          .where(eq(applicationDrafts.userId, userId))
          .limit(1);
        const value = this.decryptJson(row?.dataEnc)?.[field];
        if (typeof value !== 'string' || !value) {
          throw appError(
            'NOT_FOUND',
            field === 'realName' ? '该用户没有填写真实姓名' : '该用户没有填写身份证号',
          );
        }
        out = { field, value, contacts: null };
      }
      await recordAudit(tx, actor, {
        action: 'reveal',
        entity: 'user',
        entityId: userId,
        after: { field },
        reason,
      });
      return out;
    });
  }

  // -------------------------------------------------------------------------------------------
  // Leads

  private leadQuery(where: SQL | undefined) {
    return this.d.db
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
    const rows = await this.leadQuery(where)
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

  // -------------------------------------------------------------------------------------------
  // Deliveries

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

  // -------------------------------------------------------------------------------------------
  // Audit log

  async auditLog(q: AuditLogQuery) {
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

  async auditFacets(): Promise<AuditFacets> {
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
