import type { AdminUserListQuery } from '@lm/shared/schemas/admin-leads';
import { and, asc, count, desc, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  applicationDrafts,
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
import { type AuditInput, recordAudit } from '../audit/service.ts';
import { endAdAttribution } from '../conversions/reports-repository.ts';
import { RUN_LIMIT, SESSION_LIMIT } from './lead-rows.ts';
import { leadQuery } from './repository.ts';

export type UserRow = typeof users.$inferSelect;

/** The console's people and what belongs to them: their queries; the rules are the service's. */
export class AdminPeopleRepository {
  constructor(private readonly db: Db) {}

  /** Runs `fn` in one transaction, with this repository bound to it. */
  transaction<T>(fn: (tx: AdminPeopleRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new AdminPeopleRepository(tx as unknown as Db)));
  }

  /** An audit entry in this repository's transaction (the change and its record commit together). */
  recordAudit(actor: Actor, input: AuditInput): Promise<void> {
    return recordAudit(this.db, actor, input);
  }

  /**
   * One page of people (`phoneHash` is the blind index of the exact phone searched; `start`/`end`
   * bound the registration time), sorted by `q.sort` with nulls last and ties broken by id, and how
   * many match.
   */
  async listForConsole(
    q: AdminUserListQuery,
    phoneHash: string | null,
    range: { start?: Date | undefined; end?: Date | undefined },
  ): Promise<{ total: number; rows: UserRow[] }> {
    const conds: SQL[] = [];
    if (phoneHash) conds.push(eq(users.mobileHash, phoneHash));
    if (q.channelCode) conds.push(eq(users.adChannelCode, q.channelCode));
    if (q.status) conds.push(eq(users.status, q.status));
    if (q.userInfoStatus !== undefined) conds.push(eq(users.userInfoStatus, q.userInfoStatus));
    if (range.start) conds.push(gte(users.createdAt, range.start));
    if (range.end) conds.push(lt(users.createdAt, range.end));
    const where = conds.length ? and(...conds) : undefined;

    const [{ total } = { total: 0 }] = await this.db.select({ total: count() }).from(users).where(where);
    const col = q.sort === 'lastLoginAt' ? users.lastLoginAt : users.createdAt;
    const dir = q.order === 'asc' ? sql`asc` : sql`desc`;
    const rows = await this.db
      .select()
      .from(users)
      .where(where)
      .orderBy(sql`${col} ${dir} nulls last`, q.order === 'asc' ? asc(users.id) : desc(users.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize);
    return { total: Number(total), rows };
  }

  /** Consents per person, and leads per person and status, of these people. */
  countsByUser(ids: number[]) {
    return Promise.all([
      this.db
        .select({ userId: consents.userId, n: count() })
        .from(consents)
        .where(inArray(consents.userId, ids))
        .groupBy(consents.userId),
      this.db
        .select({ userId: leads.userId, status: leads.status, n: count() })
        .from(leads)
        .where(inArray(leads.userId, ids))
        .groupBy(leads.userId, leads.status),
    ]);
  }

  async findUser(userId: number): Promise<UserRow | undefined> {
    const [u] = await this.db.select().from(users).where(eq(users.id, userId)).limit(1);
    return u;
  }

  /**
   * What belongs to a person, newest first: draft, credit profile, the last RUN_LIMIT match runs,
   * consents and leads (with product and lender names), partner notices, the last SESSION_LIMIT sessions.
   */
  belongingsOf(userId: number) {
    const { db } = this;
    return Promise.all([
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
      leadQuery(db, eq(leads.userId, userId)).orderBy(desc(leads.id)),
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
  }

  /** The offers of these runs with product and lender names (by run, rank, id), and the attempts of these leads. */
  offersAndAttempts(runIds: number[], leadIds: number[]) {
    const { db } = this;
    return Promise.all([
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
  }

  /** Product names by id (as strings). */
  async productNames(ids: number[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .select({ id: products.id, name: products.productName })
      .from(products)
      .where(inArray(products.id, ids));
    return new Map(rows.map((p) => [String(p.id), p.name]));
  }

  async findUserPhone(
    userId: number,
  ): Promise<{ id: number; mobileEnc: string | null; status: UserRow['status'] } | undefined> {
    const [u] = await this.db
      .select({ id: users.id, mobileEnc: users.mobileEnc, status: users.status })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    return u;
  }

  /** A person's objection to conversion reporting, locked for the rest of the transaction (undefined: none). */
  async lockAdReporting(
    userId: number,
  ): Promise<{ id: number; adReportingObjectedAt: Date | null } | undefined> {
    const [u] = await this.db
      .select({ id: users.id, adReportingObjectedAt: users.adReportingObjectedAt })
      .from(users)
      .where(eq(users.id, userId))
      .for('update');
    return u;
  }

  async setAdReportingObjectedAt(userId: number, at: Date | null): Promise<void> {
    await this.db.update(users).set({ adReportingObjectedAt: at }).where(eq(users.id, userId));
  }

  /** Ends the person's ad attribution, as a cancellation does (drops pending reports, unlinks clicks). */
  endAdAttribution(userId: number): Promise<void> {
    return endAdAttribution(this.db, userId);
  }

  /** The encrypted credit profile of a person (undefined without one). */
  async creditProfileData(userId: number): Promise<string | undefined> {
    const [row] = await this.db
      .select({ dataEnc: creditProfiles.dataEnc })
      .from(creditProfiles)
      .where(eq(creditProfiles.userId, userId))
      .limit(1);
    return row?.dataEnc;
  }

  /** The encrypted application draft of a person (undefined without one). */
  async draftData(userId: number): Promise<string | undefined> {
    const [row] = await this.db
      .select({ dataEnc: applicationDrafts.dataEnc })
      .from(applicationDrafts)
      .where(eq(applicationDrafts.userId, userId))
      .limit(1);
    return row?.dataEnc;
  }
}
