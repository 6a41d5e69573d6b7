import type { RumMetric, VitalsGroupBy } from '@lm/shared/schemas/rum';
import { and, between, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { webVitals } from '../../db/schema.ts';

export type WebVitalInsert = typeof webVitals.$inferInsert;

export interface VitalsFilter {
  from: string;
  to: string;
  groupBy: VitalsGroupBy;
  metric?: RumMetric | undefined;
  channelCode?: string | undefined;
  skin?: number | undefined;
  route?: string | undefined;
}

const GROUP_COLUMN = {
  route: sql`${webVitals.route}`,
  channel: sql`${webVitals.channelCode}`,
  skin: sql`${webVitals.skin}::text`,
} as const;

/** Web-vitals beacons (`web_vitals`): stored, and summed up for the console. */
export class RumRepository {
  constructor(private readonly db: Db) {}

  /** Stores a beacon's items in one insert. */
  async insertVitals(rows: WebVitalInsert[]): Promise<void> {
    await this.db.insert(webVitals).values(rows);
  }

  /**
   * count, p50, p75 and p95 (percentile_cont) per group and metric, the busiest `limit` groups first
   * (raw, unrounded values).
   */
  percentiles(f: VitalsFilter, limit: number) {
    const group = GROUP_COLUMN[f.groupBy];
    const where: (SQL | undefined)[] = [
      between(webVitals.day, f.from, f.to),
      f.metric ? eq(webVitals.metric, f.metric) : undefined,
      f.channelCode ? eq(webVitals.channelCode, f.channelCode) : undefined,
      f.skin !== undefined ? eq(webVitals.skin, f.skin) : undefined,
      f.route ? eq(webVitals.route, f.route) : undefined,
    ];
    return this.db
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
      .limit(limit);
  }
}
