import type { AdminNoticeListQuery } from '@lm/shared/schemas/privacy';
import { and, asc, count, desc, eq, gte, inArray, isNull, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  applicationDrafts,
  consents,
  creditProfiles,
  deviceReports,
  events,
  faceChecks,
  leads,
  matchOffers,
  matchRuns,
  partnerNotices,
  partners,
  productEvents,
  products,
  sessions,
  uploadedFiles,
  users,
} from '../../db/schema.ts';
import type { LeadForWithdrawal, SharingNotice } from './rules.ts';

export type NoticeInsert = typeof partnerNotices.$inferInsert;

/** A lead as the withdrawal plan reads it (rules.ts `planWithdrawal`). */
export type LeadToStop = LeadForWithdrawal;

/**
 * The privacy module's data access (issue 18): the person's sessions, application record, consents,
 * leads and the notices to lenders, the export's reads, and the console's notice list. Built on a
 * transaction by `transaction(fn)` (or by another module's repository, for the cancellation).
 */
export class PrivacyRepository {
  constructor(private readonly db: Db) {}

  /** Runs `fn` in one transaction with this repository bound to it. */
  transaction<T>(fn: (tx: PrivacyRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((trx) => fn(new PrivacyRepository(trx as unknown as Db)));
  }

  // --- sessions

  listSessions(userId: number, limit: number) {
    return this.db
      .select()
      .from(sessions)
      .where(eq(sessions.userId, userId))
      .orderBy(desc(sessions.createdAt), desc(sessions.id))
      .limit(limit);
  }

  /** Revokes the person's open sessions; how many. */
  async revokeOpenSessions(userId: number, now: Date, reason: 'logout'): Promise<number> {
    const revoked = await this.db
      .update(sessions)
      .set({ revokedAt: now, revokeReason: reason })
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id });
    return revoked.length;
  }

  // --- application record

  async countRuns(userId: number): Promise<number> {
    const [{ total } = { total: 0 }] = await this.db
      .select({ total: count() })
      .from(matchRuns)
      .where(eq(matchRuns.userId, userId));
    return Number(total);
  }

  /** One page of the person's match runs, newest first. */
  runsPage(userId: number, limit: number, offset: number) {
    return this.db
      .select({
        id: matchRuns.id,
        createdAt: matchRuns.createdAt,
        channelCode: matchRuns.adChannelCode,
        matchType: matchRuns.matchType,
      })
      .from(matchRuns)
      .where(eq(matchRuns.userId, userId))
      .orderBy(desc(matchRuns.createdAt), desc(matchRuns.id))
      .limit(limit)
      .offset(offset);
  }

  /** The offers of these runs with their product, lender, consent and lead (in run, rank order). */
  async offersOfRuns(userId: number, runIds: number[]) {
    if (runIds.length === 0) return [];
    return this.db
      .select({
        runId: matchOffers.runId,
        offerId: matchOffers.id,
        productId: matchOffers.productId,
        rank: matchOffers.rank,
        status: matchOffers.status,
        productName: products.productName,
        aprBps: products.aprBps,
        lenderName: partners.legalName,
        consentId: consents.id,
        consentedAt: consents.createdAt,
        agreementVersion: consents.agreementVersion,
        withdrawnAt: consents.withdrawnAt,
        leadStatus: leads.status,
        deliveredAt: leads.deliveredAt,
        leadOutcome: leads.outcome,
        // The lender's latest approval limit, latest funding amount and latest report (issue 47.6).
        limitFen: sql<
          number | null
        >`(select o.limit_fen from lead_outcomes o where o.lead_id = ${leads.id} and o.status = 'approved' order by o.id desc limit 1)`.mapWith(
          Number,
        ),
        amountFen: sql<
          number | null
        >`(select o.amount_fen from lead_outcomes o where o.lead_id = ${leads.id} and o.status = 'funded' order by o.id desc limit 1)`.mapWith(
          Number,
        ),
        reportedAt:
          sql<Date | null>`(select max(o.received_at) from lead_outcomes o where o.lead_id = ${leads.id})`.mapWith(
            (v: Date | string) => new Date(v),
          ),
      })
      .from(matchOffers)
      .innerJoin(products, eq(matchOffers.productId, products.id))
      .innerJoin(partners, eq(matchOffers.partnerId, partners.id))
      .leftJoin(consents, eq(consents.offerId, matchOffers.id))
      .leftJoin(leads, eq(leads.consentId, consents.id))
      .where(and(eq(matchOffers.userId, userId), inArray(matchOffers.runId, runIds)))
      .orderBy(matchOffers.runId, matchOffers.rank, matchOffers.id);
  }

  // --- who has my data

  /** The person's consents (to one lender, or all) with lender, product and lead. */
  sharingRows(userId: number, partnerId?: number) {
    const conds = [eq(consents.userId, userId)];
    if (partnerId !== undefined) conds.push(eq(consents.partnerId, partnerId));
    return this.db
      .select({
        partnerId: consents.partnerId,
        lenderName: partners.legalName,
        licenceNumber: partners.licenceNumber,
        productName: products.productName,
        consentedAt: consents.createdAt,
        fields: consents.fields,
        withdrawnAt: consents.withdrawnAt,
        leadStatus: leads.status,
        deliveredAt: leads.deliveredAt,
        leadUpdatedAt: leads.updatedAt,
        attempts: leads.attempts,
      })
      .from(consents)
      .innerJoin(partners, eq(consents.partnerId, partners.id))
      .innerJoin(products, eq(consents.productId, products.id))
      .leftJoin(leads, eq(leads.consentId, consents.id))
      .where(and(...conds));
  }

  /** The notices sent about the person (to one lender, or all). */
  sharingNotices(userId: number, partnerId?: number): Promise<SharingNotice[]> {
    const conds = [eq(partnerNotices.userId, userId)];
    if (partnerId !== undefined) conds.push(eq(partnerNotices.partnerId, partnerId));
    return this.db
      .select({
        id: partnerNotices.id,
        partnerId: partnerNotices.partnerId,
        kind: partnerNotices.kind,
        status: partnerNotices.status,
        dueAt: partnerNotices.dueAt,
        confirmedAt: partnerNotices.confirmedAt,
        createdAt: partnerNotices.createdAt,
      })
      .from(partnerNotices)
      .where(and(...conds));
  }

  // --- withdrawal and cancellation (inside a transaction)

  /** Locks the person's row: their withdrawals and their cancellation run one at a time. */
  async lockUser(userId: number): Promise<void> {
    await this.db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
  }

  async hasConsented(userId: number, partnerId: number): Promise<boolean> {
    const [any] = await this.db
      .select({ id: consents.id })
      .from(consents)
      .where(and(eq(consents.userId, userId), eq(consents.partnerId, partnerId)))
      .limit(1);
    return any !== undefined;
  }

  /** Withdraws the consents still in force (to one lender, or all); the ids withdrawn now. */
  async withdrawConsents(userId: number, now: Date, partnerId?: number): Promise<number[]> {
    const conds = [eq(consents.userId, userId), isNull(consents.withdrawnAt)];
    if (partnerId !== undefined) conds.push(eq(consents.partnerId, partnerId));
    const rows = await this.db
      .update(consents)
      .set({ withdrawnAt: now })
      .where(and(...conds))
      .returning({ id: consents.id });
    return rows.map((r) => r.id);
  }

  /** The leads of these consents, locked. */
  leadsOfConsentsForUpdate(consentIds: number[]): Promise<LeadToStop[]> {
    return this.db
      .select({ id: leads.id, key: leads.idempotencyKey, status: leads.status, attempts: leads.attempts })
      .from(leads)
      .where(inArray(leads.consentId, consentIds))
      .for('update');
  }

  /** Every lead of the person with its lender, locked (in id order). */
  leadsOfUserForUpdate(userId: number): Promise<(LeadToStop & { partnerId: number })[]> {
    return this.db
      .select({
        id: leads.id,
        key: leads.idempotencyKey,
        status: leads.status,
        attempts: leads.attempts,
        partnerId: leads.partnerId,
      })
      .from(leads)
      .where(eq(leads.userId, userId))
      .orderBy(leads.id)
      .for('update');
  }

  /** Leads still `pending` among `ids` become `withdrawn` (never sent). */
  async stopLeads(ids: number[], now: Date): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .update(leads)
      .set({ status: 'withdrawn', lockedUntil: null, lastError: '用户已撤回授权', updatedAt: now })
      .where(and(inArray(leads.id, ids), eq(leads.status, 'pending')));
  }

  async insertNotices(rows: NoticeInsert[]): Promise<void> {
    if (rows.length > 0) await this.db.insert(partnerNotices).values(rows);
  }

  /** Replaces the copies of the person's answers kept with their leads and match runs by `empty`. */
  async eraseAnswerCopies(userId: number, empty: string, now: Date): Promise<void> {
    await this.db.update(leads).set({ payloadEnc: empty, updatedAt: now }).where(eq(leads.userId, userId));
    await this.db.update(matchRuns).set({ profileEnc: empty }).where(eq(matchRuns.userId, userId));
  }

  // --- export

  async userById(userId: number) {
    const [user] = await this.db.select().from(users).where(eq(users.id, userId)).limit(1);
    return user;
  }

  /** Everything kept about the person, each table newest first (analytics capped at `eventLimit`). */
  async exportRows(userId: number, eventLimit: number) {
    const db = this.db;
    const [sessionRows, draft, credit, runs, offers, consentRows, leadRows, noticeRows, files, faces] =
      await Promise.all([
        db.select().from(sessions).where(eq(sessions.userId, userId)).orderBy(desc(sessions.id)),
        db.select().from(applicationDrafts).where(eq(applicationDrafts.userId, userId)).limit(1),
        db.select().from(creditProfiles).where(eq(creditProfiles.userId, userId)).limit(1),
        db.select().from(matchRuns).where(eq(matchRuns.userId, userId)).orderBy(desc(matchRuns.id)),
        db
          .select({
            offer: matchOffers,
            productName: products.productName,
            lenderName: partners.legalName,
          })
          .from(matchOffers)
          .innerJoin(products, eq(matchOffers.productId, products.id))
          .innerJoin(partners, eq(matchOffers.partnerId, partners.id))
          .where(eq(matchOffers.userId, userId))
          .orderBy(matchOffers.runId, matchOffers.rank),
        db
          .select({
            consent: consents,
            productName: products.productName,
            lenderName: partners.legalName,
            licenceNumber: partners.licenceNumber,
          })
          .from(consents)
          .innerJoin(products, eq(consents.productId, products.id))
          .innerJoin(partners, eq(consents.partnerId, partners.id))
          .where(eq(consents.userId, userId))
          .orderBy(desc(consents.id)),
        db
          .select({ lead: leads, productName: products.productName, lenderName: partners.legalName })
          .from(leads)
          .innerJoin(products, eq(leads.productId, products.id))
          .innerJoin(partners, eq(leads.partnerId, partners.id))
          .where(eq(leads.userId, userId))
          .orderBy(desc(leads.id)),
        db
          .select({ notice: partnerNotices, lenderName: partners.legalName })
          .from(partnerNotices)
          .innerJoin(partners, eq(partnerNotices.partnerId, partners.id))
          .where(eq(partnerNotices.userId, userId))
          .orderBy(desc(partnerNotices.id)),
        db
          .select()
          .from(uploadedFiles)
          .where(eq(uploadedFiles.ownerUserId, userId))
          .orderBy(desc(uploadedFiles.id)),
        db.select().from(faceChecks).where(eq(faceChecks.userId, userId)).orderBy(desc(faceChecks.id)),
      ]);
    const [eventRows, productEventRows, deviceRows] = await Promise.all([
      db.select().from(events).where(eq(events.userId, userId)).orderBy(desc(events.id)).limit(eventLimit),
      db
        .select({ e: productEvents, productName: products.productName })
        .from(productEvents)
        .innerJoin(products, eq(productEvents.productId, products.id))
        .where(eq(productEvents.userId, userId))
        .orderBy(desc(productEvents.id))
        .limit(eventLimit),
      db
        .select()
        .from(deviceReports)
        .where(eq(deviceReports.userId, userId))
        .orderBy(desc(deviceReports.id))
        .limit(eventLimit),
    ]);
    return {
      sessionRows,
      draft: draft[0],
      credit: credit[0],
      runs,
      offers,
      consentRows,
      leadRows,
      noticeRows,
      files,
      faces,
      eventRows,
      productEventRows,
      deviceRows,
    };
  }

  // --- notices: the lender's confirmation and the console

  /** This lender's deletion notice with this idempotency key. */
  async findDeletionNotice(partnerId: number, noticeKey: string) {
    const [row] = await this.db
      .select({ id: partnerNotices.id, status: partnerNotices.status })
      .from(partnerNotices)
      .where(
        and(
          eq(partnerNotices.idempotencyKey, noticeKey),
          eq(partnerNotices.partnerId, partnerId),
          eq(partnerNotices.kind, 'deletion'),
        ),
      )
      .limit(1);
    return row;
  }

  async confirmNotice(id: number, now: Date): Promise<void> {
    await this.db
      .update(partnerNotices)
      .set({ status: 'confirmed', confirmedAt: now, lockedUntil: null, lastError: null, updatedAt: now })
      .where(and(eq(partnerNotices.id, id), ne(partnerNotices.status, 'confirmed')));
  }

  /** The console's filter: kind, status, overdue (due date passed and not confirmed) or not. */
  private noticeFilter(q: AdminNoticeListQuery, now: Date): SQL | undefined {
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
    return and(...conds);
  }

  /** One page of the console's notice list: unconfirmed first, earliest due first, newest first. */
  async noticePage(q: AdminNoticeListQuery, now: Date) {
    const where = this.noticeFilter(q, now);
    const [{ total } = { total: 0 }] = await this.db
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
    return { total: Number(total), rows };
  }

  async noticeRow(id: number) {
    const [row] = await this.noticeRows(eq(partnerNotices.id, id));
    return row;
  }

  private noticeRows(where: SQL | undefined) {
    return this.db
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

  async noticeState(id: number) {
    const [n] = await this.db
      .select({ status: partnerNotices.status, kind: partnerNotices.kind })
      .from(partnerNotices)
      .where(eq(partnerNotices.id, id))
      .limit(1);
    return n;
  }

  /** Queues the notice again (attempts from zero) if it is still in `status`. */
  async requeueNotice(id: number, status: NoticeInsert['status'], now: Date): Promise<void> {
    await this.db
      .update(partnerNotices)
      .set({ status: 'pending', attempts: 0, nextAttemptAt: now, lockedUntil: null, updatedAt: now })
      .where(and(eq(partnerNotices.id, id), eq(partnerNotices.status, status)));
  }

  /** The handle to give another module's writer inside this repository's transaction. */
  get handle(): Db {
    return this.db;
  }
}
