import { and, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  channelClicks,
  channelCosts,
  channels,
  leads,
  ledgerEntries,
  spendImports,
  spendRows,
  staff,
  users,
} from '../../db/schema.ts';
import type { Actor } from '../../lib/actor.ts';
import { type AuditInput, recordAudit } from '../audit/service.ts';
import { LedgerRepository } from '../ledger/repository.ts';

export type ChannelCostRowDb = typeof channelCosts.$inferSelect;
/** A cost row with the name of who added it (null: an account since deleted). */
export type ChannelCostWithWho = ChannelCostRowDb & { createdByName: string | null };
export type SpendImportRow = typeof spendImports.$inferSelect;
export type SpendImportWithWho = SpendImportRow & { createdByName: string | null; totalFen: number };

/** The advisory-lock key of spend imports (one at a time: each books the difference to what is booked). */
const SPEND_LOCK_CLASS = 48_002;

/** Per channel code, per Shanghai day, a count. */
export type DayCounts = Map<string, Map<string, number>>;

function toCounts(rows: { code: string | null; day: string; n: number }[]): DayCounts {
  const out: DayCounts = new Map();
  for (const r of rows) {
    if (r.code === null) continue;
    const days = out.get(r.code) ?? new Map<string, number>();
    days.set(r.day, Number(r.n));
    out.set(r.code, days);
  }
  return out;
}

/**
 * Channel costs and imported spend (issue 48.2): `channel_costs` rows are only added; spend imports and their
 * rows are only added; the counts of a channel's events per Shanghai day the daily cost is booked on.
 */
export class ChannelCostsRepository {
  constructor(private readonly db: Db) {}

  /** Runs `fn` in one transaction, with this repository and a ledger repository bound to it. */
  transaction<T>(fn: (tx: ChannelCostsRepository, ledger: LedgerRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) =>
      fn(new ChannelCostsRepository(tx as unknown as Db), new LedgerRepository(tx as unknown as Db)),
    );
  }

  /** The ledger, on the same connection (or transaction). */
  ledger(): LedgerRepository {
    return new LedgerRepository(this.db);
  }

  recordAudit(actor: Actor, input: AuditInput): Promise<void> {
    return recordAudit(this.db, actor, input);
  }

  /** The channel's id, code and name; null when there is no such channel. */
  async channel(id: number): Promise<{ id: number; code: string; name: string } | null> {
    const [row] = await this.db
      .select({ id: channels.id, code: channels.adChannelCode, name: channels.name })
      .from(channels)
      .where(eq(channels.id, id));
    return row ?? null;
  }

  /** Every cost row of a channel, with who added it (in no particular order). */
  async costs(channelId: number): Promise<ChannelCostWithWho[]> {
    const rows = await this.db
      .select({ c: channelCosts, createdByName: staff.name })
      .from(channelCosts)
      .leftJoin(staff, eq(staff.id, channelCosts.createdBy))
      .where(eq(channelCosts.channelId, channelId));
    return rows.map((r) => ({ ...r.c, createdByName: r.createdByName }));
  }

  /** Adds a cost row; null when the channel already has one from this instant (the unique index). */
  async insert(values: typeof channelCosts.$inferInsert): Promise<ChannelCostRowDb | null> {
    const [row] = await this.db.insert(channelCosts).values(values).onConflictDoNothing().returning();
    return row ?? null;
  }

  /** Every cost row of every channel, with the channel's code (a small table: a few rows per channel). */
  async allCosts(): Promise<(ChannelCostRowDb & { code: string })[]> {
    const rows = await this.db
      .select({ c: channelCosts, code: channels.adChannelCode })
      .from(channelCosts)
      .innerJoin(channels, eq(channels.id, channelCosts.channelId));
    return rows.map((r) => ({ ...r.c, code: r.code }));
  }

  /** The channels of these codes with their cost rows. */
  async channelsByCodes(codes: string[]): Promise<{ id: number; code: string; costs: ChannelCostRowDb[] }[]> {
    if (codes.length === 0) return [];
    const found = await this.db
      .select({ id: channels.id, code: channels.adChannelCode })
      .from(channels)
      .where(inArray(channels.adChannelCode, codes));
    if (found.length === 0) return [];
    const costs = await this.db
      .select()
      .from(channelCosts)
      .where(
        inArray(
          channelCosts.channelId,
          found.map((c) => c.id),
        ),
      );
    return found.map((c) => ({ ...c, costs: costs.filter((r) => r.channelId === c.id) }));
  }

  // --- the day's events of channels (the daily cost poster)

  /** Counted clicks (not flagged) per channel and Shanghai day, `from`–`to` inclusive. */
  async clickCounts(codes: string[], from: string, to: string): Promise<DayCounts> {
    if (codes.length === 0) return new Map();
    const rows = await this.db
      .select({
        code: channelClicks.adChannelCode,
        day: channelClicks.day,
        n: sql<number>`count(*)::int`,
      })
      .from(channelClicks)
      .where(
        and(
          inArray(channelClicks.adChannelCode, codes),
          eq(channelClicks.flagged, false),
          sql`${channelClicks.day} between ${from} and ${to}`,
        ),
      )
      .groupBy(channelClicks.adChannelCode, channelClicks.day);
    return toCounts(rows);
  }

  /** People registered per channel (users.ad_channel_code) and Shanghai day, in [start, end). */
  async registrationCounts(codes: string[], start: Date, end: Date): Promise<DayCounts> {
    if (codes.length === 0) return new Map();
    const day = sql<string>`to_char(${users.createdAt} at time zone 'Asia/Shanghai', 'YYYY-MM-DD')`;
    const rows = await this.db
      .select({ code: users.adChannelCode, day, n: sql<number>`count(*)::int` })
      .from(users)
      .where(and(inArray(users.adChannelCode, codes), gte(users.createdAt, start), lt(users.createdAt, end)))
      .groupBy(users.adChannelCode, day);
    return toCounts(rows);
  }

  /** Leads created per channel of their person and Shanghai day, in [start, end). */
  async leadCounts(codes: string[], start: Date, end: Date): Promise<DayCounts> {
    if (codes.length === 0) return new Map();
    const day = sql<string>`to_char(${leads.createdAt} at time zone 'Asia/Shanghai', 'YYYY-MM-DD')`;
    const rows = await this.db
      .select({ code: users.adChannelCode, day, n: sql<number>`count(*)::int` })
      .from(leads)
      .innerJoin(users, eq(users.id, leads.userId))
      .where(and(inArray(users.adChannelCode, codes), gte(leads.createdAt, start), lt(leads.createdAt, end)))
      .groupBy(users.adChannelCode, day);
    return toCounts(rows);
  }

  // --- spend imports

  /** Holds the spend imports' lock until this transaction ends (one import books at a time). */
  async lockSpendImports(): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(${SPEND_LOCK_CLASS}, 0)`);
  }

  /** The import of a file with this content hash, with who made it and its total; null: none. */
  async importByHash(hash: string): Promise<SpendImportWithWho | null> {
    const [row] = await this.listImports(1, hash);
    return row ?? null;
  }

  /** Imports, the latest first, with who made them and the total of their rows. */
  async listImports(limit: number, hash?: string): Promise<SpendImportWithWho[]> {
    const total = sql<number>`coalesce((select sum(r.amount_fen) from ${spendRows} r where r.import_id = ${spendImports.id}), 0)::bigint`;
    const rows = await this.db
      .select({ i: spendImports, createdByName: staff.name, totalFen: total })
      .from(spendImports)
      .leftJoin(staff, eq(staff.id, spendImports.createdBy))
      .where(hash === undefined ? undefined : eq(spendImports.fileHash, hash))
      .orderBy(desc(spendImports.id))
      .limit(limit);
    return rows.map((r) => ({ ...r.i, createdByName: r.createdByName, totalFen: Number(r.totalFen) }));
  }

  /** Records an import; null when a file of this hash was imported already (the unique index). */
  async insertImport(values: typeof spendImports.$inferInsert): Promise<SpendImportRow | null> {
    const [row] = await this.db.insert(spendImports).values(values).onConflictDoNothing().returning();
    return row ?? null;
  }

  async insertSpendRows(values: (typeof spendRows.$inferInsert)[]): Promise<void> {
    for (let i = 0; i < values.length; i += 1000)
      await this.db.insert(spendRows).values(values.slice(i, i + 1000));
  }

  /**
   * The spend booked so far per channel-day (the sum of its `spend` channel-cost entries), keyed
   * `<channelId>|<eventAt ISO>` (a spend entry's event is the start of its Shanghai day).
   */
  async spendBooked(channelIds: number[], from: Date, to: Date): Promise<Map<string, number>> {
    if (channelIds.length === 0) return new Map();
    const rows = await this.db
      .select({
        channelId: ledgerEntries.partyId,
        at: ledgerEntries.eventAt,
        fen: sql<number>`sum(${ledgerEntries.amountFen})::bigint`,
      })
      .from(ledgerEntries)
      .where(
        and(
          eq(ledgerEntries.kind, 'channel_cost'),
          eq(ledgerEntries.partyType, 'channel'),
          eq(ledgerEntries.model, 'spend'),
          inArray(ledgerEntries.partyId, channelIds),
          gte(ledgerEntries.eventAt, from),
          lt(ledgerEntries.eventAt, to),
        ),
      )
      .groupBy(ledgerEntries.partyId, ledgerEntries.eventAt);
    return new Map(rows.map((r) => [`${r.channelId}|${r.at.toISOString()}`, Number(r.fen)]));
  }
}
