import { eq, sql } from 'drizzle-orm';
import { type CopyRows, copyText, type Db, rowsOf } from '../../db/client.ts';
import { channels, routeCodes } from '../../db/schema.ts';
import type { ClickRow } from './clicks.ts';
import type { ChannelRow } from './rules.ts';

export type RouteCodeRow = typeof routeCodes.$inferSelect;

/** A click row the insert stored (the first of its channel, fingerprint and day). */
export interface InsertedClick {
  ad_channel_code: string;
  fingerprint_hash: string | null;
  day: string;
}

const CLICK_COLUMNS = [
  'ad_channel_code',
  'fingerprint_hash',
  'day',
  'ab_test_type',
  'flagged',
  'ip',
  'created_at',
] as const;
/** PostgreSQL's unique_violation. */
const UNIQUE_VIOLATION = '23505';

/** Channels, their route codes and clicks (channels, route_codes, channel_clicks). */
export class ChannelRepository {
  constructor(
    private readonly db: Db,
    /** The embedded PGlite's COPY (db/client.ts): `appendClicks` uses it when given. */
    private readonly copyRows?: CopyRows,
  ) {}

  /** The channel with this code. */
  async findByCode(adChannelCode: string): Promise<ChannelRow | undefined> {
    const [row] = await this.db
      .select()
      .from(channels)
      .where(eq(channels.adChannelCode, adChannelCode))
      .limit(1);
    return row;
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
      for (const r of rows) {
        text += `${copyText(r.adChannelCode)}\t${copyText(r.fingerprintHash)}\t${r.day}\t${copyText(r.abTestType)}\t${r.fingerprintHash === null ? 't' : 'f'}\t${copyText(r.ip)}\t${r.at.toISOString()}\n`;
      }
      try {
        await this.copyRows('channel_clicks', CLICK_COLUMNS, text);
        return;
      } catch (err) {
        if ((err as { code?: unknown }).code !== UNIQUE_VIOLATION) throw err;
      }
    }
    await this.insertClicks(rows, false);
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
