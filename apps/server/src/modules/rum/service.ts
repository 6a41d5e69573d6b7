import type { RumMetric, VitalsBody, WebVitalsRow } from '@lm/shared/schemas/rum';
import { shanghaiDate } from '@lm/shared/time';
import type { Limiter } from '../limits/limiter.ts';
import type { RumRepository, VitalsFilter } from './repository.ts';
import {
  metricOrder,
  ratingOf,
  toStored,
  VITALS_BEACONS_PER_DEVICE_PER_HOUR,
  VITALS_BEACONS_PER_IP_PER_HOUR,
} from './rules.ts';

export interface RumDeps {
  repo: RumRepository;
  limiter: Limiter;
  deviceHash(fingerprint: string): string;
}

export type { VitalsFilter } from './repository.ts';

/** Most groups × metrics one console answer holds (the busiest first). */
export const VITALS_MAX_ROWS = 1_000;

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
    await this.d.repo.insertVitals(
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
    const rows = await this.d.repo.percentiles(f, VITALS_MAX_ROWS);
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
