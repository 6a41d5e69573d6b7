/**
 * Real-user monitoring rules (issue 8), pure: what a stored row holds for a reported item, the
 * console's date range, and the rating of a group's p75.
 */
import {
  RUM_METRICS,
  type RumMetric,
  type RumRating,
  rateVital,
  VITALS_MAX_DAYS,
  type VitalItem,
  type VitalMetric,
} from '@lm/shared/schemas/rum';

/** Default days of the console's range (to = today, from = 6 days before). */
export const VITALS_DEFAULT_DAYS = 7;
/** Beacons per device and per IP an hour (a page sends one or two per visit; a shared IP many). */
export const VITALS_BEACONS_PER_DEVICE_PER_HOUR = 120;
export const VITALS_BEACONS_PER_IP_PER_HOUR = 2_000;

export function isVital(metric: RumMetric): metric is VitalMetric {
  return metric !== 'CHUNK_ERROR';
}

/**
 * The rating stored for an item: the server's own by the thresholds (a client's rating is not
 * trusted), none for a chunk error.
 */
export function ratingOf(metric: RumMetric, value: number): RumRating | null {
  return isVital(metric) ? rateVital(metric, value) : null;
}

export interface StoredVital {
  metric: RumMetric;
  value: number;
  rating: RumRating | null;
  route: string;
  channelCode: string | null;
  skin: number | null;
  navigationType: string | null;
  connection: string | null;
}

/** The row of one reported item (CLS rounded to 4 places, timings to 0.1 ms). */
export function toStored(item: VitalItem): StoredVital {
  const value =
    item.metric === 'CHUNK_ERROR'
      ? 1
      : item.metric === 'CLS'
        ? Math.round(item.value * 10_000) / 10_000
        : Math.round(item.value * 10) / 10;
  return {
    metric: item.metric,
    value,
    rating: ratingOf(item.metric, value),
    route: item.route,
    channelCode: item.channel || null,
    skin: item.skin ?? null,
    navigationType: item.navigationType || null,
    connection: item.connection || null,
  };
}

export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

export type RangeResult = { ok: true; from: string; to: string } | { ok: false; message: string };

/** `to` defaults to today, `from` to 6 days before `to`; at most VITALS_MAX_DAYS days, from ≤ to. */
export function resolveVitalsRange(
  input: { from?: string | undefined; to?: string | undefined },
  today: string,
): RangeResult {
  const to = input.to ?? today;
  const from = input.from ?? addDays(to, -(VITALS_DEFAULT_DAYS - 1));
  const span = Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
  if (span < 1) return { ok: false, message: '结束日期不能早于开始日期' };
  if (span > VITALS_MAX_DAYS) return { ok: false, message: `日期范围最多 ${VITALS_MAX_DAYS} 天` };
  return { ok: true, from, to };
}

/** Rows ordered for reading: metric in RUM_METRICS order, then most samples first. */
export function metricOrder(
  a: { metric: RumMetric; count: number },
  b: { metric: RumMetric; count: number },
) {
  return RUM_METRICS.indexOf(a.metric) - RUM_METRICS.indexOf(b.metric) || b.count - a.count;
}
