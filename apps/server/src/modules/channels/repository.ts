import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { channelClicks, channels, operators, routeCodeMisses, routeCodes } from '../../db/schema.ts';
import type { ClickRow } from './click-store.ts';
import type { ChannelSource } from './rules.ts';

export type RouteCodeRow = typeof routeCodes.$inferSelect;

/** Channels, their route codes and clicks (channels, route_codes, channel_clicks). */
export class ChannelRepository {
  constructor(private readonly db: Db) {}

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
   * Stores one click (… ON CONFLICT DO NOTHING RETURNING): the unique index of (channel, fingerprint hash, day)
   * keeps a fingerprint's first click of the day; true when this row was stored.
   */
  async insertClick(row: ClickRow): Promise<boolean> {
    const stored = await this.db
      .insert(channelClicks)
      .values({
        adChannelCode: row.adChannelCode,
        fingerprintHash: row.fingerprintHash,
        day: row.day,
        abTestType: row.abTestType,
        flagged: row.fingerprintHash === null,
        ip: row.ip,
        createdAt: row.at,
      })
      .onConflictDoNothing()
      .returning({ id: channelClicks.id });
    return stored.length > 0;
  }
}
