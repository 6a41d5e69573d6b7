/**
 * Real-user monitoring (issue 8, spec §9 browser-performance monitor): Core Web Vitals and script
 * chunk failures measured on people's phones, sent by the H5 with sendBeacon in batches
 * (POST /api/report/vitals), and their percentiles per route, channel and skin for the console
 * (GET /api/admin/web-vitals). See docs/rum.md.
 */
import { z } from 'zod';
import { dayFilterSchema } from './common.ts';

/** Spec §9: the monitor is initialised with the fixed environment prod and version 1.0.3. */
export const RUM_ENV = 'prod';
export const RUM_VERSION = '1.0.3';

/** The timing/layout metrics, then the chunk-load failure event (value 1). */
export const VITAL_METRICS = ['LCP', 'INP', 'CLS', 'TTFB', 'FCP'] as const;
export type VitalMetric = (typeof VITAL_METRICS)[number];
export const RUM_METRICS = [...VITAL_METRICS, 'CHUNK_ERROR'] as const;
export type RumMetric = (typeof RUM_METRICS)[number];

export const RUM_RATINGS = ['good', 'needs-improvement', 'poor'] as const;
export type RumRating = (typeof RUM_RATINGS)[number];

/**
 * Core Web Vitals thresholds (web.dev): at or below `good` is good, above `poor` is poor, between
 * needs improvement. ms for timings, unitless for CLS.
 */
export const VITAL_THRESHOLDS: Record<VitalMetric, { good: number; poor: number }> = {
  LCP: { good: 2500, poor: 4000 },
  INP: { good: 200, poor: 500 },
  CLS: { good: 0.1, poor: 0.25 },
  TTFB: { good: 800, poor: 1800 },
  FCP: { good: 1800, poor: 3000 },
};

/** The rating of `value` for `metric` by VITAL_THRESHOLDS. */
export function rateVital(metric: VitalMetric, value: number): RumRating {
  const t = VITAL_THRESHOLDS[metric];
  if (value <= t.good) return 'good';
  if (value <= t.poor) return 'needs-improvement';
  return 'poor';
}

/** Largest plausible value per metric (anything above is a broken measurement, refused). */
export const VITAL_MAX: Record<RumMetric, number> = {
  LCP: 600_000,
  INP: 60_000,
  CLS: 100,
  TTFB: 600_000,
  FCP: 600_000,
  CHUNK_ERROR: 1,
};

/** Most items in one beacon. */
export const RUM_MAX_ITEMS = 50;

const token = (max: number, what: string) =>
  z
    .string()
    .trim()
    .max(max, `${what}最长 ${max} 个字符`)
    .regex(/^[A-Za-z0-9_.-]*$/, `${what}只能包含字母、数字、_ . -`);

/** A route pattern such as /fill-information/success or /audit-new/:id — never a URL with a query. */
export const routePattern = z
  .string()
  .trim()
  .max(120, '路由最长 120 个字符')
  .regex(/^\/[A-Za-z0-9_\-/:*]*$/, '路由应为以 / 开头的路径（不含查询参数）');

export const vitalItem = z
  .object({
    metric: z.enum(RUM_METRICS, { error: '指标应为 LCP、INP、CLS、TTFB、FCP 或 CHUNK_ERROR' }),
    value: z.number({ error: '指标值应为数字' }).finite().min(0, '指标值不能为负数'),
    /** The client's rating; the server rates again by VITAL_THRESHOLDS. */
    rating: z.enum(RUM_RATINGS).optional(),
    route: routePattern,
    channel: token(64, '渠道号').nullish(),
    skin: z.number().int().min(1).max(99).nullish(),
    navigationType: token(32, '导航类型').nullish(),
    connection: token(16, '网络类型').nullish(),
  })
  .superRefine((item, ctx) => {
    if (item.value > VITAL_MAX[item.metric]) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: `${item.metric} 的值超出合理范围` });
    }
  });
export type VitalItem = z.infer<typeof vitalItem>;

/** POST /api/report/vitals — JSON, or a beacon's text/plain JSON string. */
export const vitalsBody = z.preprocess(
  (v) => {
    if (typeof v !== 'string') return v;
    try {
      return JSON.parse(v);
    } catch {
      return v;
    }
  },
  z.object(
    {
      env: z
        .string()
        .trim()
        .regex(/^[a-z]{2,16}$/, '环境 env 应为 2 到 16 位小写字母'),
      version: z
        .string()
        .trim()
        .regex(/^\d{1,4}\.\d{1,4}\.\d{1,4}$/, '版本号 version 格式应为 x.y.z'),
      /** A beacon carries no headers: the device fingerprint travels in the body. */
      fingerprint: z.string().trim().min(1).max(128).optional(),
      items: z
        .array(vitalItem)
        .min(1, '至少上报 1 条指标')
        .max(RUM_MAX_ITEMS, `每次最多上报 ${RUM_MAX_ITEMS} 条指标`),
    },
    { error: '请求体应为 JSON 对象' },
  ),
);
export type VitalsBody = z.infer<typeof vitalsBody>;

export const vitalsAccepted = z.object({ accepted: z.number().int() });

/** The console groups the percentiles by one of these. */
export const VITALS_GROUP_BY = ['route', 'channel', 'skin'] as const;
export type VitalsGroupBy = (typeof VITALS_GROUP_BY)[number];

/** Most days one console query covers. */
export const VITALS_MAX_DAYS = 92;

export const webVitalsQuery = z.object({
  from: dayFilterSchema.optional(),
  to: dayFilterSchema.optional(),
  groupBy: z.enum(VITALS_GROUP_BY, { error: '分组应为 route、channel 或 skin' }).default('route'),
  metric: z.enum(RUM_METRICS, { error: '指标应为 LCP、INP、CLS、TTFB、FCP 或 CHUNK_ERROR' }).optional(),
  channelCode: token(64, '渠道号').optional(),
  skin: z.coerce.number().int().min(1).max(99).optional(),
  route: routePattern.optional(),
});
export type WebVitalsQuery = z.infer<typeof webVitalsQuery>;

export const webVitalsRow = z.object({
  /** The route pattern, channel code or skin number (as text); null when the reports had none. */
  group: z.string().nullable(),
  metric: z.enum(RUM_METRICS),
  count: z.number().int(),
  /** Percentiles (continuous); for CHUNK_ERROR only the count matters. */
  p50: z.number(),
  p75: z.number(),
  p95: z.number(),
  /** The p75's rating by VITAL_THRESHOLDS; null for CHUNK_ERROR. */
  rating: z.enum(RUM_RATINGS).nullable(),
});
export type WebVitalsRow = z.infer<typeof webVitalsRow>;

export const webVitalsData = z.object({
  from: z.string(),
  to: z.string(),
  groupBy: z.enum(VITALS_GROUP_BY),
  thresholds: z.record(z.string(), z.object({ good: z.number(), poor: z.number() })),
  rows: z.array(webVitalsRow),
});
export type WebVitalsData = z.infer<typeof webVitalsData>;
