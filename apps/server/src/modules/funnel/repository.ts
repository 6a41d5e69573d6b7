import type { OutcomeStatus } from '@lm/shared/outcomes';
import { and, asc, between, count, eq, gte, inArray, isNotNull, lt, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  channelClicks,
  channels,
  consents,
  events,
  leads,
  matchRuns,
  sessions,
  users,
} from '../../db/schema.ts';

export interface FunnelFilter {
  from: string;
  to: string;
  /** null: every channel, including visits without one. */
  channelCodes: string[] | null;
  skin?: number | undefined;
}

/** A visitor: its device on that day; a session without a device id counts alone. */
const visitorKey = sql`(${events.day}::text || ':' || coalesce(${events.fingerprintHash}, 's:' || ${events.sessionId}))`;
const visitors = sql<number>`count(distinct ${visitorKey})::int`;
const sessionsCount = sql<number>`count(*)::int`;

/**
 * 二次授权 (re_authorization, spec §1's last step) is an authorisation page opened again after the
 * retention popup: a session's report counts only when that session showed the popup (issue 44.14 — the
 * second match's page used to report it; it now reports second_match_authorization).
 */
const onlyAfterThePopup = sql`(${events.step} <> 're_authorization' or exists (
  select 1 from ${events} as popup
  where popup.session_id = ${events.sessionId} and popup.step = 'retention_popup'))`;

/**
 * The funnel's queries on `events` (once per session and step, spec §1) and `channel_clicks` (once
 * per device, channel and day). Every query is bounded by `day` first, so it runs on the indexes
 * events_day (day, ad_channel_code, step) and channel_clicks_day (day, ad_channel_code).
 */
export class FunnelRepository {
  constructor(private readonly db: Db) {}

  /** Events of the filter's days, channels and skin, among `steps`. */
  private eventWhere(f: FunnelFilter, steps: readonly string[]): SQL {
    const parts: (SQL | undefined)[] = [
      between(events.day, f.from, f.to),
      f.channelCodes ? inArray(events.adChannelCode, f.channelCodes) : undefined,
      inArray(events.step, [...steps]),
      f.skin === undefined ? undefined : eq(events.skin, f.skin),
      steps.includes('re_authorization') ? onlyAfterThePopup : undefined,
    ];
    return and(...parts)!;
  }

  private clickWhere(f: FunnelFilter): SQL {
    const parts: (SQL | undefined)[] = [
      between(channelClicks.day, f.from, f.to),
      f.channelCodes ? inArray(channelClicks.adChannelCode, f.channelCodes) : undefined,
      // Clicks without a device id are stored flagged and never counted.
      isNotNull(channelClicks.fingerprintHash),
      f.skin === undefined ? undefined : eq(channelClicks.abTestType, f.skin),
    ];
    return and(...parts)!;
  }

  /** Per step (among `steps`): visitors and sessions. */
  visitorsPerStep(f: FunnelFilter, steps: readonly string[]) {
    return this.db
      .select({ step: events.step, count: visitors, sessions: sessionsCount })
      .from(events)
      .where(this.eventWhere(f, steps))
      .groupBy(events.step);
  }

  /** Counted clicks (those with a device id). */
  async clickCount(f: FunnelFilter): Promise<number> {
    const [clicks] = await this.db.select({ n: count() }).from(channelClicks).where(this.clickWhere(f));
    return clicks?.n ?? 0;
  }

  /** Per day and step (among `steps`): visitors. */
  visitorsPerDayAndStep(f: FunnelFilter, steps: readonly string[]) {
    return this.db
      .select({ day: events.day, step: events.step, count: visitors })
      .from(events)
      .where(this.eventWhere(f, steps))
      .groupBy(events.day, events.step);
  }

  /** Per day: counted clicks. */
  clicksPerDay(f: FunnelFilter) {
    return this.db
      .select({ day: channelClicks.day, count: count() })
      .from(channelClicks)
      .where(this.clickWhere(f))
      .groupBy(channelClicks.day);
  }

  /** Per channel and step (among `steps`): visitors. */
  visitorsPerChannelAndStep(f: FunnelFilter, steps: readonly string[]) {
    return this.db
      .select({ adChannelCode: events.adChannelCode, step: events.step, count: visitors })
      .from(events)
      .where(this.eventWhere(f, steps))
      .groupBy(events.adChannelCode, events.step);
  }

  /** Per channel: counted clicks. */
  clicksPerChannel(f: FunnelFilter) {
    return this.db
      .select({ adChannelCode: channelClicks.adChannelCode, count: count() })
      .from(channelClicks)
      .where(this.clickWhere(f))
      .groupBy(channelClicks.adChannelCode);
  }

  /** Per skin and step (among `steps`): visitors. */
  visitorsPerSkinAndStep(f: FunnelFilter, steps: readonly string[]) {
    return this.db
      .select({ skin: events.skin, step: events.step, count: visitors })
      .from(events)
      .where(this.eventWhere(f, steps))
      .groupBy(events.skin, events.step);
  }

  /** Per skin (the click's A/B arm): counted clicks. */
  clicksPerSkin(f: FunnelFilter) {
    return this.db
      .select({ skin: channelClicks.abTestType, count: count() })
      .from(channelClicks)
      .where(this.clickWhere(f))
      .groupBy(channelClicks.abTestType);
  }

  /**
   * The cohorts of the filter's authorisations (issue 47.6): for each `authorize` event of the filter's days,
   * channels and skin that carries its person (the H5 reports it signed in), the outcome of every lead that
   * person's consents made the same Shanghai day, among `outcomes` — one row per distinct (day, session,
   * channel, skin, person, outcome). The funnel's rules count persons from them.
   */
  cohortLeads(f: FunnelFilter, outcomes: readonly OutcomeStatus[]) {
    if (outcomes.length === 0) return Promise.resolve([]);
    return this.db
      .selectDistinct({
        day: events.day,
        sessionId: events.sessionId,
        adChannelCode: events.adChannelCode,
        skin: events.skin,
        userId: leads.userId,
        outcome: leads.outcome,
      })
      .from(events)
      .innerJoin(
        leads,
        and(
          eq(leads.userId, events.userId),
          sql`(${leads.createdAt} at time zone 'Asia/Shanghai')::date = ${events.day}`,
        ),
      )
      .where(and(this.eventWhere(f, ['authorize']), inArray(leads.outcome, [...outcomes])));
  }

  /** A channel's flags and skin arms. */
  async channelSkins(code: string) {
    const [channel] = await this.db
      .select({ flags: channels.flags, skinArms: channels.skinArms })
      .from(channels)
      .where(eq(channels.adChannelCode, code))
      .limit(1);
    return channel;
  }

  /** Channels' codes and names by code: every channel, or only `codes`. */
  channelNames(codes: string[] | null) {
    return this.db
      .select({ adChannelCode: channels.adChannelCode, name: channels.name })
      .from(channels)
      .where(codes ? inArray(channels.adChannelCode, codes) : undefined)
      .orderBy(asc(channels.adChannelCode));
  }

  /**
   * Distinct people per Shanghai day in [start, end): who began a session, who submitted the form (a
   * form or automatic-form match run) and who gave a consent.
   */
  async peoplePerDay(start: Date, end: Date) {
    const perDay = async (
      table: typeof sessions | typeof matchRuns | typeof consents,
      extra?: SQL,
    ): Promise<Map<string, number>> => {
      const day = sql<string>`to_char(${table.createdAt} at time zone 'Asia/Shanghai', 'YYYY-MM-DD')`;
      const rows = await this.db
        .select({ day, n: sql<number>`count(distinct ${table.userId})::int` })
        .from(table)
        .where(and(gte(table.createdAt, start), lt(table.createdAt, end), extra))
        .groupBy(day);
      return new Map(rows.map((r) => [r.day, r.n]));
    };
    const [logins, submits, authorizations] = await Promise.all([
      perDay(sessions),
      perDay(matchRuns, inArray(matchRuns.source, ['form', 'auto'])),
      perDay(consents),
    ]);
    return { logins, submits, authorizations };
  }

  /** Registrations and leads created per Shanghai day in [start, end). */
  async createdPerDay(start: Date, end: Date) {
    const dayOf = (col: typeof users.createdAt | typeof leads.createdAt) =>
      sql<string>`to_char(${col} at time zone 'Asia/Shanghai', 'YYYY-MM-DD')`;
    const [u, l] = await Promise.all([
      this.db
        .select({ day: dayOf(users.createdAt), n: count() })
        .from(users)
        .where(and(gte(users.createdAt, start), lt(users.createdAt, end)))
        .groupBy(dayOf(users.createdAt)),
      this.db
        .select({ day: dayOf(leads.createdAt), n: count() })
        .from(leads)
        .where(and(gte(leads.createdAt, start), lt(leads.createdAt, end)))
        .groupBy(dayOf(leads.createdAt)),
    ]);
    return {
      users: new Map(u.map((r) => [r.day, r.n])),
      leads: new Map(l.map((r) => [r.day, r.n])),
    };
  }
}
