import { and, count, desc, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { leadReturns, leads, ledgerEntries, partners, products, staff, users } from '../../db/schema.ts';
import type { Actor } from '../../lib/actor.ts';
import { type AuditInput, recordAudit } from '../audit/service.ts';
import { LedgerRepository } from '../ledger/repository.ts';
import { RETURN_LOCK_CLASS } from './rules.ts';

export type LeadReturnRow = typeof leadReturns.$inferSelect;

/** What a return needs to know of a lead (and its lender's return settings). */
export interface ReturnLead {
  id: number;
  key: string;
  userId: number;
  productId: number;
  partnerId: number;
  partnerCode: string;
  deliveredAt: Date | null;
  outcome: string | null;
  /** The person's channel (users.ad_channel_code); null: unknown. */
  channelCode: string | null;
  returnWindowDays: number;
  maxReturnRateBps: number;
}

/** Lead returns (`lead_returns`, issue 48.4) and the reads they need; the ledger bound to the same transaction. */
export class ReturnRepository {
  constructor(private readonly db: Db) {}

  /** Runs `fn` in one transaction, with this repository bound to it. */
  transaction<T>(fn: (tx: ReturnRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new ReturnRepository(tx as unknown as Db)));
  }

  /** The ledger on this repository's connection (inside `transaction`: the same transaction). */
  ledger(): LedgerRepository {
    return new LedgerRepository(this.db);
  }

  recordAudit(actor: Actor, input: AuditInput): Promise<void> {
    return recordAudit(this.db, actor, input);
  }

  /** Holds the lender's returns lock until this transaction ends: its returns are decided one at a time. */
  async lockPartner(partnerId: number): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(${RETURN_LOCK_CLASS}, ${partnerId})`);
  }

  private leadQuery() {
    return this.db
      .select({
        id: leads.id,
        key: leads.idempotencyKey,
        userId: leads.userId,
        productId: leads.productId,
        partnerId: leads.partnerId,
        partnerCode: partners.code,
        deliveredAt: leads.deliveredAt,
        outcome: leads.outcome,
        channelCode: users.adChannelCode,
        returnWindowDays: partners.returnWindowDays,
        maxReturnRateBps: partners.maxReturnRateBps,
      })
      .from(leads)
      .innerJoin(partners, eq(partners.id, leads.partnerId))
      .leftJoin(users, eq(users.id, leads.userId));
  }

  /** This lender's lead with this key (its Idempotency-Key); null: none of this lender's. */
  async leadOf(partnerId: number, leadKey: string): Promise<ReturnLead | null> {
    const [row] = await this.leadQuery().where(
      and(eq(leads.partnerId, partnerId), eq(leads.idempotencyKey, leadKey)),
    );
    return row ?? null;
  }

  async leadById(leadId: number): Promise<ReturnLead | null> {
    const [row] = await this.leadQuery().where(eq(leads.id, leadId));
    return row ?? null;
  }

  /** Whether the lead's CPL entry is booked (the sweep books it shortly after delivery). */
  async deliveryBooked(leadId: number): Promise<boolean> {
    const [row] = await this.db
      .select({ id: ledgerEntries.id })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.kind, 'lead_revenue'), eq(ledgerEntries.reference, `lead:${leadId}:cpl`)));
    return row !== undefined;
  }

  async byLead(leadId: number): Promise<LeadReturnRow | null> {
    const [row] = await this.db.select().from(leadReturns).where(eq(leadReturns.leadId, leadId));
    return row ?? null;
  }

  async byTransaction(partnerId: number, transactionId: string): Promise<LeadReturnRow | null> {
    const [row] = await this.db
      .select()
      .from(leadReturns)
      .where(and(eq(leadReturns.partnerId, partnerId), eq(leadReturns.transactionId, transactionId)));
    return row ?? null;
  }

  /** A return, locked for the transaction; null: none. */
  async lockedById(id: number): Promise<LeadReturnRow | null> {
    const [row] = await this.db.select().from(leadReturns).where(eq(leadReturns.id, id)).for('update');
    return row ?? null;
  }

  /** Leads delivered to the lender in [from, to). */
  async deliveredBetween(partnerId: number, from: Date, to: Date): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(leads)
      .where(and(eq(leads.partnerId, partnerId), gte(leads.deliveredAt, from), lt(leads.deliveredAt, to)));
    return Number(row?.n ?? 0);
  }

  /** The lender's returns (accepted + disputed) of its leads delivered in [from, to). */
  async returnedBetween(partnerId: number, from: Date, to: Date): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(leadReturns)
      .innerJoin(leads, eq(leads.id, leadReturns.leadId))
      .where(
        and(
          eq(leadReturns.partnerId, partnerId),
          inArray(leadReturns.status, ['accepted', 'disputed']),
          gte(leads.deliveredAt, from),
          lt(leads.deliveredAt, to),
        ),
      );
    return Number(row?.n ?? 0);
  }

  /** Inserts a return unless the lead has one or the lender sent this transaction id before; null then. */
  async insertOnce(values: typeof leadReturns.$inferInsert): Promise<LeadReturnRow | null> {
    const [row] = await this.db.insert(leadReturns).values(values).onConflictDoNothing().returning();
    return row ?? null;
  }

  /** Decides a disputed return (staff); null when it is no longer disputed. */
  async review(
    id: number,
    values: {
      status: 'accepted' | 'rejected';
      reviewedBy: number | null;
      reviewedAt: Date;
      reviewNote: string;
    },
  ): Promise<LeadReturnRow | null> {
    const [row] = await this.db
      .update(leadReturns)
      .set(values)
      .where(and(eq(leadReturns.id, id), eq(leadReturns.status, 'disputed')))
      .returning();
    return row ?? null;
  }

  /** The amount of a return's `return` entry (null: none booked). */
  async returnEntryAmount(returnId: number): Promise<number | null> {
    const [row] = await this.db
      .select({ a: ledgerEntries.amountFen })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.kind, 'return'), eq(ledgerEntries.reference, `return:${returnId}`)));
    return row ? Number(row.a) : null;
  }

  /** Returns for the console, newest first, with the lead, lender, product, reviewer and the amount reversed. */
  async list(
    filter: { id?: number; status?: LeadReturnRow['status']; partnerId?: number },
    page: { page: number; pageSize: number },
  ) {
    const where: SQL[] = [];
    if (filter.id) where.push(eq(leadReturns.id, filter.id));
    if (filter.status) where.push(eq(leadReturns.status, filter.status));
    if (filter.partnerId) where.push(eq(leadReturns.partnerId, filter.partnerId));
    const cond = where.length > 0 ? and(...where) : undefined;
    const [total] = await this.db.select({ n: count() }).from(leadReturns).where(cond);
    const rows = await this.db
      .select({
        r: leadReturns,
        leadKey: leads.idempotencyKey,
        productId: leads.productId,
        deliveredAt: leads.deliveredAt,
        partnerName: partners.legalName,
        productName: products.productName,
        reviewedByName: staff.name,
        returnFen: ledgerEntries.amountFen,
      })
      .from(leadReturns)
      .leftJoin(leads, eq(leads.id, leadReturns.leadId))
      .innerJoin(partners, eq(partners.id, leadReturns.partnerId))
      .leftJoin(products, eq(products.id, leads.productId))
      .leftJoin(staff, eq(staff.id, leadReturns.reviewedBy))
      .leftJoin(
        ledgerEntries,
        and(
          eq(ledgerEntries.kind, 'return'),
          eq(ledgerEntries.reference, sql`'return:' || ${leadReturns.id}`),
        ),
      )
      .where(cond)
      .orderBy(desc(leadReturns.requestedAt), desc(leadReturns.id))
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize);
    return { total: Number(total?.n ?? 0), rows };
  }
}
