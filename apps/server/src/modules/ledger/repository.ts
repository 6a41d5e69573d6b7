import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  channelCosts,
  channels,
  leadOutcomes,
  leadReturns,
  leads,
  ledgerEntries,
  monthCloses,
  partners,
  productPrices,
  users,
} from '../../db/schema.ts';
import { bookingMonth, LEDGER_LOCK_CLASS, LENDER_LOCK_CLASS, monthLockKey } from './rules.ts';

export type LedgerEntryRow = typeof ledgerEntries.$inferSelect;
/**
 * An entry to book: everything but its id, booking month and creation time. `eventMonth` is the month it
 * belongs to (`shanghaiMonthOf(eventAt)`, or the charged month a return nets); `book` decides `month`.
 */
export type EntryInput = Omit<typeof ledgerEntries.$inferInsert, 'id' | 'month' | 'createdAt'>;

/** A lender event the ledger has not booked yet. */
export interface DueLeadEvent {
  leadId: number;
  productId: number;
  partnerId: number;
  partnerCode: string;
  at: Date;
  /** The channel the person came from (users.ad_channel_code); null: unknown. */
  channelCode: string | null;
  /** The funded outcome (cps) and its amount; null otherwise. */
  outcomeId: number | null;
  amountFen: number | null;
}

/**
 * The ledger (issue 48.3, ADR 073): append-only entries booked in open Shanghai months, month closes, and the
 * lead events not booked yet. Every write goes through `book` inside a transaction.
 */
export class LedgerRepository {
  constructor(private readonly db: Db) {}

  /** Runs `fn` in one transaction, with this repository bound to it. */
  transaction<T>(fn: (tx: LedgerRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new LedgerRepository(tx as unknown as Db)));
  }

  /** Holds the month's posting lock shared until this transaction ends (many postings at once, no close). */
  async lockMonthShared(month: string): Promise<void> {
    await this.db.execute(
      sql`select pg_advisory_xact_lock_shared(${LEDGER_LOCK_CLASS}, ${monthLockKey(month)})`,
    );
  }

  /** Holds the month's posting lock alone until this transaction ends (a close: waits for postings in flight). */
  async lockMonthExclusive(month: string): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(${LEDGER_LOCK_CLASS}, ${monthLockKey(month)})`);
  }

  /** Holds the lender's lock shared until this transaction ends (no return of its leads decided meanwhile). */
  async lockLenderShared(partnerId: number): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock_shared(${LENDER_LOCK_CLASS}, ${partnerId})`);
  }

  /** Whether the lead has an accepted return (it earns nothing more). */
  async returned(leadId: number): Promise<boolean> {
    const [row] = await this.db
      .select({ id: leadReturns.id })
      .from(leadReturns)
      .where(and(eq(leadReturns.leadId, leadId), eq(leadReturns.status, 'accepted')));
    return row !== undefined;
  }

  async isClosed(month: string): Promise<boolean> {
    const [row] = await this.db
      .select({ m: monthCloses.month })
      .from(monthCloses)
      .where(eq(monthCloses.month, month));
    return row !== undefined;
  }

  /** Every closed month. */
  async closedMonths(): Promise<Set<string>> {
    const rows = await this.db.select({ m: monthCloses.month }).from(monthCloses);
    return new Set(rows.map((r) => r.m));
  }

  async monthClose(month: string) {
    const [row] = await this.db.select().from(monthCloses).where(eq(monthCloses.month, month));
    return row ?? null;
  }

  /**
   * Books entries (call inside a transaction): each in its event's month, or the first open month after it
   * when that one is closed — deciding under the month's shared lock, so no entry lands in a month after its
   * close. An entry whose (kind, reference) is booked already is skipped. Answers the entries booked now.
   */
  async book(entries: readonly EntryInput[]): Promise<LedgerEntryRow[]> {
    const decided = new Map<string, string>();
    const locked = new Set<string>();
    const monthFor = async (eventMonth: string): Promise<string> => {
      const known = decided.get(eventMonth);
      if (known) return known;
      const closed = new Set<string>();
      let m = eventMonth;
      for (;;) {
        if (!locked.has(m)) {
          await this.lockMonthShared(m);
          locked.add(m);
        }
        if (!(await this.isClosed(m))) break;
        closed.add(m);
        m = bookingMonth(m, closed);
      }
      decided.set(eventMonth, m);
      return m;
    };
    const out: LedgerEntryRow[] = [];
    for (const e of entries) {
      const month = await monthFor(e.eventMonth);
      const [row] = await this.db
        .insert(ledgerEntries)
        .values({ ...e, month })
        .onConflictDoNothing({ target: [ledgerEntries.kind, ledgerEntries.reference] })
        .returning();
      if (row) out.push(row);
    }
    return out;
  }

  /** Closes a month (call inside a transaction, after `lockMonthExclusive`); false when it was closed already. */
  async insertClose(month: string, staffId: number | null): Promise<boolean> {
    const rows = await this.db
      .insert(monthCloses)
      .values({ month, closedBy: staffId })
      .onConflictDoNothing()
      .returning({ m: monthCloses.month });
    return rows.length > 0;
  }

  /** Entries already booked with these references (of one kind). */
  async booked(kind: LedgerEntryRow['kind'], references: string[]): Promise<Set<string>> {
    if (references.length === 0) return new Set();
    const rows = await this.db
      .select({ r: ledgerEntries.reference })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.kind, kind), inArray(ledgerEntries.reference, references)));
    return new Set(rows.map((r) => r.r));
  }

  /** Entries of one lead (its revenue and what reversed it). */
  async entriesOfLead(leadId: number): Promise<LedgerEntryRow[]> {
    return this.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.leadId, leadId))
      .orderBy(asc(ledgerEntries.id));
  }

  // --- lead events not booked yet (the posting sweep)

  /** Delivered leads without their CPL entry, oldest first. */
  async dueDeliveries(limit: number): Promise<DueLeadEvent[]> {
    const rows = await this.db
      .select({
        leadId: leads.id,
        productId: leads.productId,
        partnerId: leads.partnerId,
        partnerCode: partners.code,
        at: leads.deliveredAt,
        channelCode: users.adChannelCode,
      })
      .from(leads)
      .innerJoin(partners, eq(partners.id, leads.partnerId))
      .leftJoin(users, eq(users.id, leads.userId))
      .where(
        and(
          eq(leads.status, 'delivered'),
          isNotNull(leads.deliveredAt),
          sql`not exists (select 1 from ${ledgerEntries} e where e.kind = 'lead_revenue' and e.reference = 'lead:' || ${leads.id} || ':cpl')`,
        ),
      )
      .orderBy(asc(leads.deliveredAt), asc(leads.id))
      .limit(limit);
    return rows.map((r) => ({ ...r, at: r.at as Date, outcomeId: null, amountFen: null }));
  }

  /**
   * Leads whose lender reported them approved (or funded) without their CPA entry: the first such applied
   * outcome is the event. A lead with an accepted return earns nothing more. An outcome's instant is the
   * lender's `occurredAt` held between the lead's creation and our receipt: a lender cannot date an event
   * before the lead existed (before a price) or after it told us (into a month to come).
   */
  async dueApprovals(limit: number): Promise<DueLeadEvent[]> {
    const first = sql`(select min(least(greatest(o.occurred_at, ${leads.createdAt}), o.received_at)) from ${leadOutcomes} o where o.lead_id = ${leads.id} and o.applied and o.status in ('approved', 'funded'))`;
    const rows = await this.db
      .select({
        leadId: leads.id,
        productId: leads.productId,
        partnerId: leads.partnerId,
        partnerCode: partners.code,
        at: sql<Date>`${first}`.mapWith((v: string | Date) => new Date(v)),
        channelCode: users.adChannelCode,
      })
      .from(leads)
      .innerJoin(partners, eq(partners.id, leads.partnerId))
      .leftJoin(users, eq(users.id, leads.userId))
      .where(
        and(
          sql`${leads.outcome} in ('approved', 'funded')`,
          sql`${first} is not null`,
          sql`not exists (select 1 from ${ledgerEntries} e where e.kind = 'lead_revenue' and e.reference = 'lead:' || ${leads.id} || ':cpa')`,
          sql`not exists (select 1 from ${leadReturns} r where r.lead_id = ${leads.id} and r.status = 'accepted')`,
        ),
      )
      .orderBy(asc(leads.id))
      .limit(limit);
    return rows.map((r) => ({ ...r, outcomeId: null, amountFen: null }));
  }

  /** Applied `funded` outcomes without their CPS entry (each funding is an event of its own). */
  async dueFundings(limit: number): Promise<DueLeadEvent[]> {
    const rows = await this.db
      .select({
        leadId: leads.id,
        productId: leads.productId,
        partnerId: leads.partnerId,
        partnerCode: partners.code,
        at: sql<Date>`least(greatest(${leadOutcomes.occurredAt}, ${leads.createdAt}), ${leadOutcomes.receivedAt})`.mapWith(
          (v: string | Date) => new Date(v),
        ),
        channelCode: users.adChannelCode,
        outcomeId: leadOutcomes.id,
        amountFen: leadOutcomes.amountFen,
      })
      .from(leadOutcomes)
      .innerJoin(leads, eq(leads.id, leadOutcomes.leadId))
      .innerJoin(partners, eq(partners.id, leads.partnerId))
      .leftJoin(users, eq(users.id, leads.userId))
      .where(
        and(
          eq(leadOutcomes.status, 'funded'),
          eq(leadOutcomes.applied, true),
          isNotNull(leadOutcomes.amountFen),
          sql`not exists (select 1 from ${ledgerEntries} e where e.kind = 'lead_revenue' and e.reference = 'outcome:' || ${leadOutcomes.id} || ':cps')`,
          sql`not exists (select 1 from ${leadReturns} r where r.lead_id = ${leads.id} and r.status = 'accepted')`,
        ),
      )
      .orderBy(asc(leadOutcomes.id))
      .limit(limit);
    return rows;
  }

  /** The lead prices of these products. */
  async pricesOf(productIds: number[]) {
    if (productIds.length === 0) return [];
    return this.db.select().from(productPrices).where(inArray(productPrices.productId, productIds));
  }

  /** The cost rows of these channels, with each channel's id and code. */
  async channelCostsOf(codes: string[]) {
    if (codes.length === 0) return [];
    return this.db
      .select({ c: channelCosts, code: channels.adChannelCode })
      .from(channelCosts)
      .innerJoin(channels, eq(channels.id, channelCosts.channelId))
      .where(inArray(channels.adChannelCode, codes));
  }
}
