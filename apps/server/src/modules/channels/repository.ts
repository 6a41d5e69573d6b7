import { eq, sql } from 'drizzle-orm';
import { type CopyRows, type Db, rowsOf } from '../../db/client.ts';
import { channels, operators, routeCodeMisses, routeCodes } from '../../db/schema.ts';
import { CLICK_COLUMNS, clickCopyLine, parseClickCopy } from './click-copy.ts';
import type { ClickRow } from './clicks.ts';
import type { ChannelSource } from './rules.ts';

export type RouteCodeRow = typeof routeCodes.$inferSelect;

/** A click row the insert stored (the first of its channel, fingerprint and day). */
export interface InsertedClick {
  ad_channel_code: string;
  fingerprint_hash: string | null;
  day: string;
}

/** PostgreSQL's unique_violation. */
const UNIQUE_VIOLATION = '23505';

/** Channels, their route codes and clicks (channels, route_codes, channel_clicks). */
export class ChannelRepository {
  constructor(
    private readonly db: Db,
    /** The embedded PGlite's COPY (db/client.ts): `appendClicks` uses it when given. */
    private readonly copyRows?: CopyRows,
  ) {}

  /** The channel with this code, with its operator's licensed-company record (ADR 057). */
  async findByCode(adChannelCode: string): Promise<ChannelSource | undefined> {
    const [row] = await this.db
      .select({
        channel: channels,
        operator: { companyName: operators.companyName, filingNumber: operators.filingNumber },
      })
      .from(channels)
      .leftJoin(operators, eq(operators.id, channels.operatorId))
      .where(eq(channels.adChannelCode, adChannelCode))
      .limit(1);
    return row ? { ...row.channel, operator: row.operator } : undefined;
  }

  /** A route code with its channel's allowed hosts and plan target URL. */
  async findRouteCode(
    routeCode: string,
  ): Promise<{ route: RouteCodeRow; allowedHosts: string[]; channelPlan: string | null } | undefined> {
    const [row] = await this.db
      .select({ route: routeCodes, allowedHosts: channels.allowedHosts, channelPlan: channels.planTargetUrl })
      .from(routeCodes)
      .innerJoin(channels, eq(channels.adChannelCode, routeCodes.adChannelCode))
      .where(eq(routeCodes.routeCode, routeCode))
      .limit(1);
    return row;
  }

  /**
   * Counts a route code's failed exchange (issue 44.19) in one statement. A code the table does not hold yet
   * is added only while it is an operator's (in route_codes, disabled) or while fewer than `maxCodes` codes
   * are counted: anyone can make codes up, and they must not grow the table without end.
   */
  async countRouteCodeMiss(routeCode: string, at: Date, maxCodes: number): Promise<void> {
    await this.db.execute(sql`
      insert into ${routeCodeMisses} (route_code, hits, first_seen_at, last_seen_at)
      select ${routeCode}, 1, ${at.toISOString()}::timestamptz, ${at.toISOString()}::timestamptz
      where exists (select 1 from ${routeCodes} where route_code = ${routeCode})
         or (select count(*) from ${routeCodeMisses}) < ${maxCodes}
         or exists (select 1 from ${routeCodeMisses} where route_code = ${routeCode})
      on conflict (route_code) do update
        set hits = ${routeCodeMisses.hits} + 1, last_seen_at = excluded.last_seen_at`);
  }

  /**
   * Inserts clicks in ONE statement (… ON CONFLICT DO NOTHING RETURNING): the unique index decides
   * which are stored; answers the rows inserted (none asked: `returning` false). The rows go in the order given.
   */
  async insertClicks(rows: ClickRow[], returning = true): Promise<InsertedClick[]> {
    // One statement text whatever the batch's size, the rows as ONE json parameter: a single native
    // JSON.stringify instead of drizzle's insert builder (~7 % of a click's CPU, ADR 031) or seven array
    // literals escaped element by element in JavaScript (ADR 036). json_to_recordset keeps their order.
    // Short keys: c code, h fingerprint hash, d day, a skin, i IP, t time.
    const json = JSON.stringify(
      rows.map((r) => ({
        c: r.adChannelCode,
        h: r.fingerprintHash,
        d: r.day,
        a: r.abTestType,
        i: r.ip,
        t: r.at,
      })),
    );
    return rowsOf(
      await this.db.execute(sql`
        insert into channel_clicks (ad_channel_code, fingerprint_hash, day, ab_test_type, flagged, ip, created_at)
        select c, h, d, a, h is null, i, t
        from json_to_recordset(${json}::json) as r(c text, h text, d date, a smallint, i text, t timestamptz)
        on conflict do nothing
        ${returning ? sql`returning ad_channel_code, fingerprint_hash, day::text as day` : sql``}`),
    );
  }

  /**
   * Stores clicks nobody waits for (written behind, ADR 033/034), believed new: their keys were decided
   * in memory or by the ledger. With COPY (the embedded PGlite: ~40 % less work a row than the INSERT
   * below, ADR 040) they go in as they are; COPY is all or nothing, so when one of them is stored already
   * (a ledger that was wrong, a row of a batch retried after an unclear failure) nothing was stored and
   * the batch goes through `insertClicks`, whose unique index keeps the first.
   */
  async appendClicks(rows: ClickRow[]): Promise<void> {
    if (rows.length === 0) return;
    if (this.copyRows) {
      let text = '';
      for (const r of rows) text += clickCopyLine(r);
      if (await this.copied(text)) return;
    }
    await this.insertClicks(rows, false);
  }

  /** Whether clicks can be handed over as COPY text (`appendClickText`): the embedded PGlite. */
  get appendsText(): boolean {
    return this.copyRows !== undefined;
  }

  /**
   * `appendClicks` for rows already in COPY's text format (`clickCopyLine`): the click recorder keeps the rows
   * it writes behind as such text (ADR 052). Where COPY refused them (a key stored already), or where there is
   * no COPY, they are read back and inserted.
   */
  async appendClickText(text: string): Promise<void> {
    if (text === '') return;
    if (this.copyRows && (await this.copied(text))) return;
    await this.insertClicks(parseClickCopy(text), false);
  }

  /** COPY of clicks: true when stored, false when a key was stored already (nothing stored: all or nothing). */
  private async copied(text: string): Promise<boolean> {
    try {
      await this.copyRows?.('channel_clicks', CLICK_COLUMNS, text);
      return true;
    } catch (err) {
      if ((err as { code?: unknown }).code !== UNIQUE_VIOLATION) throw err;
      return false;
    }
  }

  /** Every (channel, fingerprint hash) counted on `day` (the click recorder's memory at start-up). */
  async countedKeys(day: string): Promise<{ adChannelCode: string; fingerprintHash: string }[]> {
    return rowsOf<{ adChannelCode: string; fingerprintHash: string }>(
      await this.db.execute(sql`
        select ad_channel_code as "adChannelCode", fingerprint_hash as "fingerprintHash"
        from channel_clicks where day = ${day}::date and fingerprint_hash is not null`),
    );
  }
}
