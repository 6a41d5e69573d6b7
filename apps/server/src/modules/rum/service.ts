import type { RumMetric, VitalsBody, VitalsGroupBy, WebVitalsRow } from '@lm/shared/schemas/rum';
import { and, between, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { webVitals } from '../../db/schema.ts';
import { shanghaiDate } from '../../lib/time.ts';
import type { Limiter } from '../limits/limiter.ts';
import {
  metricOrder,
  ratingOf,
  toStored,
  VITALS_BEACONS_PER_DEVICE_PER_HOUR,
  VITALS_BEACONS_PER_IP_PER_HOUR,
} from './rules.ts';

export interface RumDeps {
  db: Db;
  limiter: Limiter;
  deviceHash(fingerprint: string): string;
}

export interface VitalsFilter {
  from: string;
  to: string;
  groupBy: VitalsGroupBy;
  metric?: RumMetric | undefined;
  channelCode?: string | undefined;
  skin?: number | undefined;
  route?: string | undefined;
}

/** Most groups × metrics one console answer holds (the busiest first). */
export const VITALS_MAX_ROWS = 1_000;

const GROUP_COLUMN = {
  route: sql`${webVitals.route}`,
  channel: sql`${webVitals.channelCode}`,
  skin: sql`${webVitals.skin}::text`,
} as const;

export class RumService {
  constructor(private readonly d: RumDeps) {}

  /** Counts one beacon against the device and IP limits, then stores its items in one insert. */
  async record(body: VitalsBody, ctx: { ip: string; fingerprint?: string | undefined }, now = new Date()) {
    const deviceHash = ctx.fingerprint ? this.d.deviceHash(ctx.fingerprint) : null;
    if (deviceHash) {
      await this.d.limiter.enforce(
        `rum:dev:${deviceHash}`,
        VITALS_BEACONS_PER_DEVICE_PER_HOUR,
        { ms: 3600_000 },
        '性能数据上报',
      );
    }
    await this.d.limiter.enforce(
      `rum:ip:${ctx.ip}`,
      VITALS_BEACONS_PER_IP_PER_HOUR,
      { ms: 3600_000 },
      '性能数据上报',
    );
    const day = shanghaiDate(now);
    await this.d.db.insert(webVitals).values(
      body.items.map((item) => ({
        ...toStored(item),
        env: body.env,
        appVersion: body.version,
        deviceHash,
        day,
      })),
    );
    return { accepted: body.items.length };
  }

  /** count, p50, p75 and p95 (percentile_cont, in SQL) per group and metric, with the p75's rating. */
  async percentiles(f: VitalsFilter): Promise<WebVitalsRow[]> {
    const group = GROUP_COLUMN[f.groupBy];
    const where: (SQL | undefined)[] = [
      between(webVitals.day, f.from, f.to),
      f.metric ? eq(webVitals.metric, f.metric) : undefined,
      f.channelCode ? eq(webVitals.channelCode, f.channelCode) : undefined,
      f.skin !== undefined ? eq(webVitals.skin, f.skin) : undefined,
      f.route ? eq(webVitals.route, f.route) : undefined,
    ];
    const rows = await this.d.db
      .select({
        group: sql<string | null>`${group}`,
        metric: webVitals.metric,
        count: sql<number>`count(*)::int`,
        p50: sql<number>`percentile_cont(0.5) within group (order by ${webVitals.value})`,
        p75: sql<number>`percentile_cont(0.75) within group (order by ${webVitals.value})`,
        p95: sql<number>`percentile_cont(0.95) within group (order by ${webVitals.value})`,
      })
      .from(webVitals)
      .where(and(...where))
      .groupBy(group, webVitals.metric)
      .orderBy(sql`count(*) desc`)
      .limit(VITALS_MAX_ROWS);
    return rows
      .map((r) => {
        const metric = r.metric as RumMetric;
        const p75 = round(Number(r.p75), metric);
        return {
          group: r.group,
          metric,
          count: Number(r.count),
          p50: round(Number(r.p50), metric),
          p75,
          p95: round(Number(r.p95), metric),
          rating: ratingOf(metric, p75),
        };
      })
      .sort(metricOrder);
  }
}

/** CLS to 4 decimals, timings to whole ms. */
function round(v: number, metric: RumMetric): number {
  return metric === 'CLS' ? Math.round(v * 10_000) / 10_000 : Math.round(v);
}
