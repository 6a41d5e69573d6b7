import type { CHANNEL_SORTS } from '@lm/shared/schemas/admin-channels';
import { and, asc, count, desc, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { channelClicks, channels, operators, routeCodeMisses, routeCodes } from '../../db/schema.ts';
import type { Actor } from '../../lib/actor.ts';
import { type AuditInput, recordAudit } from '../audit/service.ts';
import type { ChannelRow } from '../channels/rules.ts';

export type RouteCodeRow = typeof routeCodes.$inferSelect;
/** A route code's failed exchanges (route_code_misses). */
export interface RouteCodeMiss {
  hits: number;
  firstSeenAt: Date;
  lastSeenAt: Date;
}
export type ChannelInsert = typeof channels.$inferInsert;

export interface ChannelFilter {
  /** Matched (case-insensitively, as a substring) against name and channel code. */
  q?: string | undefined;
  status?: number | undefined;
  linkType?: ChannelRow['linkType'] | undefined;
}

const SORT_COLUMNS = {
  id: channels.id,
  name: channels.name,
  updatedAt: channels.updatedAt,
  adChannelCode: channels.adChannelCode,
} as const;

/** What a channel's detail shows of its operator. */
const OPERATOR_COLUMNS = {
  id: operators.id,
  code: operators.code,
  companyName: operators.companyName,
  shortName: operators.shortName,
  filingNumber: operators.filingNumber,
};
export interface ChannelOperator {
  id: number;
  code: string;
  companyName: string;
  shortName: string;
  filingNumber: string;
}

const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The console's channels and route codes: their queries; the rules are the service's. */
export class AdminChannelsRepository {
  constructor(private readonly db: Db) {}

  /** Runs `fn` in one transaction, with this repository bound to it. */
  transaction<T>(fn: (tx: AdminChannelsRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new AdminChannelsRepository(tx as unknown as Db)));
  }

  /** An audit entry in this repository's transaction (the change and its record commit together). */
  recordAudit(actor: Actor, input: AuditInput): Promise<void> {
    return recordAudit(this.db, actor, input);
  }

  /**
   * One page of channels with their unflagged clicks on `day` and their number of route codes
   * (ties broken by id, newest first), and how many match.
   */
  async listForConsole(
    filter: ChannelFilter,
    sort: (typeof CHANNEL_SORTS)[number],
    order: 'asc' | 'desc',
    page: { page: number; pageSize: number },
    day: string,
  ): Promise<{ total: number; rows: { row: ChannelRow; clicks: number | null; codes: number | null }[] }> {
    const conds: SQL[] = [];
    if (filter.q) {
      const p = likePattern(filter.q);
      conds.push(or(ilike(channels.name, p), ilike(channels.adChannelCode, p))!);
    }
    if (filter.status !== undefined) conds.push(eq(channels.channelStatus, filter.status));
    if (filter.linkType !== undefined) conds.push(eq(channels.linkType, filter.linkType));
    const where = conds.length ? and(...conds) : undefined;

    const { db } = this;
    const clicks = db
      .select({ code: channelClicks.adChannelCode, n: sql<number>`count(*)::int`.as('clicks_n') })
      .from(channelClicks)
      .where(and(eq(channelClicks.day, day), eq(channelClicks.flagged, false)))
      .groupBy(channelClicks.adChannelCode)
      .as('today_clicks');
    const codes = db
      .select({ code: routeCodes.adChannelCode, n: sql<number>`count(*)::int`.as('codes_n') })
      .from(routeCodes)
      .groupBy(routeCodes.adChannelCode)
      .as('route_code_counts');
    const column = SORT_COLUMNS[sort];
    const ordered = order === 'asc' ? asc(column) : desc(column);
    const [rows, [total]] = await Promise.all([
      db
        .select({ row: channels, clicks: clicks.n, codes: codes.n })
        .from(channels)
        .leftJoin(clicks, eq(clicks.code, channels.adChannelCode))
        .leftJoin(codes, eq(codes.code, channels.adChannelCode))
        .where(where)
        .orderBy(ordered, desc(channels.id))
        .limit(page.pageSize)
        .offset((page.page - 1) * page.pageSize),
      db.select({ n: count() }).from(channels).where(where),
    ]);
    return { total: total?.n ?? 0, rows };
  }

  async findChannel(id: number): Promise<ChannelRow | undefined> {
    const [row] = await this.db.select().from(channels).where(eq(channels.id, id)).limit(1);
    return row;
  }

  async insertChannel(values: ChannelInsert): Promise<ChannelRow> {
    const [row] = await this.db.insert(channels).values(values).returning();
    return row!;
  }

  async updateChannel(id: number, values: Partial<ChannelInsert>): Promise<ChannelRow> {
    const [row] = await this.db.update(channels).set(values).where(eq(channels.id, id)).returning();
    return row!;
  }

  /** The operator with this code (what a channel's form picks), or undefined. */
  async operatorByCode(code: string): Promise<ChannelOperator | undefined> {
    const [row] = await this.db
      .select(OPERATOR_COLUMNS)
      .from(operators)
      .where(eq(operators.code, code))
      .limit(1);
    return row;
  }

  /** The operator a channel names (by its id), or undefined. */
  async operatorById(id: number): Promise<ChannelOperator | undefined> {
    const [row] = await this.db.select(OPERATOR_COLUMNS).from(operators).where(eq(operators.id, id)).limit(1);
    return row;
  }

  /** A channel's route codes, oldest first (then by code). */
  routeCodesOf(adChannelCode: string): Promise<RouteCodeRow[]> {
    return this.db
      .select()
      .from(routeCodes)
      .where(eq(routeCodes.adChannelCode, adChannelCode))
      .orderBy(asc(routeCodes.createdAt), asc(routeCodes.routeCode));
  }

  /** A channel's route codes, in no particular order. */
  routeCodesUnordered(adChannelCode: string): Promise<RouteCodeRow[]> {
    return this.db.select().from(routeCodes).where(eq(routeCodes.adChannelCode, adChannelCode));
  }

  async findRouteCode(adChannelCode: string, routeCode: string): Promise<RouteCodeRow | undefined> {
    const [row] = await this.db
      .select()
      .from(routeCodes)
      .where(and(eq(routeCodes.routeCode, routeCode), eq(routeCodes.adChannelCode, adChannelCode)))
      .limit(1);
    return row;
  }

  async insertRouteCode(values: typeof routeCodes.$inferInsert): Promise<RouteCodeRow> {
    const [row] = await this.db.insert(routeCodes).values(values).returning();
    return row!;
  }

  async updateRouteCode(
    routeCode: string,
    values: Pick<RouteCodeRow, 'planTargetUrl' | 'status'>,
  ): Promise<RouteCodeRow> {
    const [row] = await this.db
      .update(routeCodes)
      .set(values)
      .where(eq(routeCodes.routeCode, routeCode))
      .returning();
    return row!;
  }

  async deleteRouteCode(routeCode: string): Promise<void> {
    await this.db.delete(routeCodes).where(eq(routeCodes.routeCode, routeCode));
  }

  /** The failed exchanges counted for `codes`, by code (codes never missed are absent). */
  async missesOf(codes: readonly string[]): Promise<Map<string, RouteCodeMiss>> {
    if (codes.length === 0) return new Map();
    const rows = await this.db
      .select()
      .from(routeCodeMisses)
      .where(inArray(routeCodeMisses.routeCode, [...codes]));
    return new Map(rows.map(({ routeCode, ...miss }) => [routeCode, miss]));
  }

  /**
   * One page of the route codes whose exchange failed, the latest first, each with what it is now: its
   * channel and status when an operator's code still holds it (null: unknown or deleted).
   */
  async listMisses(page: { page: number; pageSize: number }) {
    const [rows, [total]] = await Promise.all([
      this.db
        .select({
          routeCode: routeCodeMisses.routeCode,
          hits: routeCodeMisses.hits,
          firstSeenAt: routeCodeMisses.firstSeenAt,
          lastSeenAt: routeCodeMisses.lastSeenAt,
          status: routeCodes.status,
          adChannelCode: channels.adChannelCode,
          channelId: channels.id,
          channelName: channels.name,
        })
        .from(routeCodeMisses)
        .leftJoin(routeCodes, eq(routeCodes.routeCode, routeCodeMisses.routeCode))
        .leftJoin(channels, eq(channels.adChannelCode, routeCodes.adChannelCode))
        .orderBy(desc(routeCodeMisses.lastSeenAt), asc(routeCodeMisses.routeCode))
        .limit(page.pageSize)
        .offset((page.page - 1) * page.pageSize),
      this.db.select({ n: count() }).from(routeCodeMisses),
    ]);
    return { total: total?.n ?? 0, rows };
  }
}
