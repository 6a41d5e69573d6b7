import { and, between, count, eq, gte, inArray, isNotNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { channelClicks, channels, leadOutcomes, leads, ledgerEntries, users } from '../../db/schema.ts';
import type { RoiFact } from './rules.ts';

/** The Shanghai day (YYYY-MM-DD) of a timestamp column or expression. */
const shanghaiDay = (col: SQL | typeof users.createdAt | typeof leads.createdAt) =>
  sql<string>`to_char(${col} at time zone 'Asia/Shanghai', 'YYYY-MM-DD')`;

/** The period: Shanghai days `from`..`to`, and the instants [start, end) they cover. */
export interface RoiPeriod {
  from: string;
  to: string;
  start: Date;
  end: Date;
}

/**
 * The ROI page's reads (issue 48.6): volumes per (channel, Shanghai day, stored skin) from the event tables and
 * the ledger's money per (channel, event day, person's skin). Each query is bounded by its day or instant first.
 */
export class RoiRepository {
  constructor(private readonly db: Db) {}

  /** Counted clicks: with a device id and not flagged (the funnel's rule), per channel, day and A/B arm. */
  async clicks(p: RoiPeriod): Promise<RoiFact[]> {
    const rows = await this.db
      .select({
        channelCode: channelClicks.adChannelCode,
        day: channelClicks.day,
        skin: channelClicks.abTestType,
        n: count(),
      })
      .from(channelClicks)
      .where(
        and(
          between(channelClicks.day, p.from, p.to),
          isNotNull(channelClicks.fingerprintHash),
          eq(channelClicks.flagged, false),
        ),
      )
      .groupBy(channelClicks.adChannelCode, channelClicks.day, channelClicks.abTestType);
    return rows.map((r) => ({ channelCode: r.channelCode, day: r.day, skin: r.skin, clicks: r.n }));
  }

  /** People registered (users created) per channel, Shanghai day and skin. */
  async registrations(p: RoiPeriod): Promise<RoiFact[]> {
    const day = shanghaiDay(users.createdAt);
    const rows = await this.db
      .select({ channelCode: users.adChannelCode, day, skin: users.abTestType, n: count() })
      .from(users)
      .where(and(gte(users.createdAt, p.start), lt(users.createdAt, p.end)))
      .groupBy(users.adChannelCode, day, users.abTestType);
    return rows.map((r) => ({ channelCode: r.channelCode, day: r.day, skin: r.skin, registrations: r.n }));
  }

  /** Leads created (each consented product) per the person's channel, Shanghai day and skin. */
  async leads(p: RoiPeriod): Promise<RoiFact[]> {
    const day = shanghaiDay(leads.createdAt);
    const rows = await this.db
      .select({ channelCode: users.adChannelCode, day, skin: users.abTestType, n: count() })
      .from(leads)
      .innerJoin(users, eq(users.id, leads.userId))
      .where(and(gte(leads.createdAt, p.start), lt(leads.createdAt, p.end)))
      .groupBy(users.adChannelCode, day, users.abTestType);
    return rows.map((r) => ({ channelCode: r.channelCode, day: r.day, skin: r.skin, leads: r.n }));
  }

  /**
   * Leads whose first applied outcome among `statuses` happened in the period (the ledger's CPA event: the
   * first approval; a loan counts as an approval), per the person's channel, that outcome's Shanghai day and
   * skin — and whose current outcome is still among them (the funnel's rule: an approval later declined no
   * longer counts).
   */
  private async firstOutcomes(p: RoiPeriod, statuses: ('approved' | 'funded')[]) {
    const first = this.db
      .select({
        leadId: leadOutcomes.leadId,
        at: sql<Date>`min(${leadOutcomes.occurredAt})`.as('first_at'),
      })
      .from(leadOutcomes)
      .where(
        and(
          eq(leadOutcomes.applied, true),
          inArray(leadOutcomes.status, statuses),
          lt(leadOutcomes.occurredAt, p.end),
        ),
      )
      .groupBy(leadOutcomes.leadId)
      .as('first_outcome');
    const day = shanghaiDay(sql`${first.at}`);
    return this.db
      .select({ channelCode: users.adChannelCode, day, skin: users.abTestType, n: count() })
      .from(first)
      .innerJoin(leads, eq(leads.id, first.leadId))
      .innerJoin(users, eq(users.id, leads.userId))
      .where(and(sql`${first.at} >= ${p.start}`, inArray(leads.outcome, statuses)))
      .groupBy(users.adChannelCode, day, users.abTestType);
  }

  async approved(p: RoiPeriod): Promise<RoiFact[]> {
    const rows = await this.firstOutcomes(p, ['approved', 'funded']);
    return rows.map((r) => ({ channelCode: r.channelCode, day: r.day, skin: r.skin, approved: r.n }));
  }

  async funded(p: RoiPeriod): Promise<RoiFact[]> {
    const rows = await this.firstOutcomes(p, ['funded']);
    return rows.map((r) => ({ channelCode: r.channelCode, day: r.day, skin: r.skin, funded: r.n }));
  }

  /**
   * The ledger's money by the entries' event day (never their booking month): lead revenue and returns (lender
   * entries: the person's channel as the entry carries it, else the lead's person's; the person's skin), and a
   * channel's cost entries and adjustments (its code; no skin).
   */
  async money(p: RoiPeriod): Promise<RoiFact[]> {
    const code = sql<
      string | null
    >`case when ${ledgerEntries.partyType} = 'channel' then ${ledgerEntries.partyCode} else coalesce(${ledgerEntries.channelCode}, ${users.adChannelCode}) end`;
    const skin = sql<
      number | null
    >`case when ${ledgerEntries.partyType} = 'channel' then null else ${users.abTestType} end`;
    const day = shanghaiDay(sql`${ledgerEntries.eventAt}`);
    const rows = await this.db
      .select({
        kind: ledgerEntries.kind,
        channelCode: code,
        day,
        skin,
        fen: sql<number>`coalesce(sum(${ledgerEntries.amountFen}), 0)::bigint`.mapWith(Number),
        n: count(),
      })
      .from(ledgerEntries)
      .leftJoin(leads, eq(leads.id, ledgerEntries.leadId))
      .leftJoin(users, eq(users.id, leads.userId))
      .where(
        and(
          gte(ledgerEntries.eventAt, p.start),
          lt(ledgerEntries.eventAt, p.end),
          or(
            and(
              eq(ledgerEntries.partyType, 'lender'),
              inArray(ledgerEntries.kind, ['lead_revenue', 'return']),
            ),
            and(
              eq(ledgerEntries.partyType, 'channel'),
              inArray(ledgerEntries.kind, ['channel_cost', 'adjustment']),
            ),
          ),
        ),
      )
      .groupBy(ledgerEntries.kind, code, day, skin);
    return rows.map((r): RoiFact => {
      const cell = { channelCode: r.channelCode, day: r.day, skin: r.skin === null ? null : Number(r.skin) };
      if (r.kind === 'lead_revenue') return { ...cell, revenueFen: r.fen };
      if (r.kind === 'return') return { ...cell, returnedFen: -r.fen, returns: r.n };
      return { ...cell, costFen: r.fen };
    });
  }

  /** Every channel: code, name, flags (its own skin) and A/B arms. */
  channels() {
    return this.db
      .select({
        adChannelCode: channels.adChannelCode,
        name: channels.name,
        flags: channels.flags,
        skinArms: channels.skinArms,
      })
      .from(channels);
  }
}
