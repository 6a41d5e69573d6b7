/**
 * The console's funnel (issue 7): per channel and Shanghai day, the steps of spec §1 from the channel
 * click to re-authorisation, then the lenders' outcomes 授信 and 放款 (issue 47.6), conversion between
 * steps, drop-off, a daily trend, one row per channel, and the A/B comparison of a channel's skin arms
 * with a two-proportion z-test.
 */
import { z } from 'zod';
import { FUNNEL_STEP_LABELS, FUNNEL_STEPS, type FunnelStep } from '../channel.ts';
import { pageData, pageQuery } from './admin.ts';
import { channelCodeSchema, dayFilterSchema } from './common.ts';

/** The longest range one funnel query may cover, in days (both ends included). */
export const FUNNEL_MAX_DAYS = 92;
/** Days shown when the query names no range: today and the 6 days before. */
export const FUNNEL_DEFAULT_DAYS = 7;

/**
 * The lenders' outcomes as funnel steps (issue 47.6), never reported by the H5: 授信 — a person with at least
 * one lead its lender reported `approved` or `funded`; 放款 — at least one lead `funded`. Counted in the cohort of
 * the authorisation that made the lead (its day, channel and skin): see the funnel service.
 */
export const FUNNEL_OUTCOME_STEPS = ['credit', 'loan'] as const;
export type FunnelOutcomeStep = (typeof FUNNEL_OUTCOME_STEPS)[number];

/**
 * The funnel's steps: the channel click, every reported step after `init` in spec §1 order, with the lenders'
 * outcomes right after 授权.
 */
export const FUNNEL_VIEW_STEPS = [
  'click',
  ...FUNNEL_STEPS.filter((s) => s !== 'init').flatMap((s) =>
    s === 'authorize' ? [s, ...FUNNEL_OUTCOME_STEPS] : [s],
  ),
] as const satisfies readonly ('click' | FunnelStep | FunnelOutcomeStep)[];
export type FunnelViewStep = (typeof FUNNEL_VIEW_STEPS)[number];
export const FUNNEL_VIEW_STEP_LABELS: Record<FunnelViewStep, string> = {
  click: '渠道点击',
  visit_landing: FUNNEL_STEP_LABELS.visit_landing,
  get_verification_code: FUNNEL_STEP_LABELS.get_verification_code,
  login: FUNNEL_STEP_LABELS.login,
  visit_form: FUNNEL_STEP_LABELS.visit_form,
  submit_form: FUNNEL_STEP_LABELS.submit_form,
  visit_authorization: FUNNEL_STEP_LABELS.visit_authorization,
  authorize: FUNNEL_STEP_LABELS.authorize,
  credit: '授信',
  loan: '放款',
  visit_result: FUNNEL_STEP_LABELS.visit_result,
  download_app: FUNNEL_STEP_LABELS.download_app,
  retention_popup: FUNNEL_STEP_LABELS.retention_popup,
  re_authorization: FUNNEL_STEP_LABELS.re_authorization,
  second_match_authorization: FUNNEL_STEP_LABELS.second_match_authorization,
};

/**
 * The funnel proper: the steps every journey passes, in order, each reached only after the one before —
 * down to the lenders' outcomes: 授权 → 授信 → 放款 (issue 47.6; a person counts at 授信 only in the cohort of
 * an authorisation of theirs, so each step is a subset of the one before). Conversion and drop-off are
 * measured along these.
 */
export const FUNNEL_PATH_STEPS = [
  'click',
  'visit_landing',
  'get_verification_code',
  'login',
  'visit_form',
  'submit_form',
  'visit_authorization',
  'authorize',
  'credit',
  'loan',
] as const satisfies readonly FunnelViewStep[];

/**
 * Steps only some journeys reach, or not after a fixed step (the result page opens after a consent and also
 * when nothing matched, so it is no subset of 授权 and comes before the lenders' answers; the download button
 * is on the landing page too; the retention popup shows when someone leaves; re-authorisation follows the
 * popup; the second match's authorisation page opens after a first consent on some channels only): shown
 * beside the funnel, never as a funnel step.
 */
export const FUNNEL_SIDE_STEPS = [
  'visit_result',
  'download_app',
  'retention_popup',
  're_authorization',
  'second_match_authorization',
] as const satisfies readonly FunnelViewStep[];

/** When a side step is reported, and the step its rate is measured from (null: no rate). */
export const FUNNEL_SIDE_STEP_INFO: Record<
  (typeof FUNNEL_SIDE_STEPS)[number],
  { hint: string; base: FunnelViewStep | null }
> = {
  visit_result: { hint: '打开结果页的人数（授权后，以及没有匹配到产品时，都会打开结果页）', base: null },
  download_app: { hint: '点了下载App的人数（落地页和结果页都有下载按钮）', base: null },
  retention_popup: { hint: '离开授权页或结果页时看到挽留弹窗的人数', base: null },
  re_authorization: { hint: '看到挽留弹窗后又打开授权页的人数', base: 'retention_popup' },
  second_match_authorization: {
    hint: '授权后打开「更多可申请机构」（二次匹配授权页）的人数，只在部分渠道出现，与挽留弹窗无关',
    base: 'authorize',
  },
};

/** A real calendar date written YYYY-MM-DD (2000–2099): the console's one day rule. */
export const daySchema = dayFilterSchema;

/** Days from `from` to `to`, both included (negative when `to` is before `from`). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** `channelCodes=a,b` or repeated `channelCodes=a&channelCodes=b`: a de-duplicated list. */
const channelCodeList = z
  .preprocess(
    (v) => {
      const parts = (Array.isArray(v) ? v : [v]).flatMap((x) => (typeof x === 'string' ? x.split(',') : [x]));
      return parts.map((p) => (typeof p === 'string' ? p.trim() : p)).filter((p) => p !== '');
    },
    z.array(channelCodeSchema).max(100, '一次最多选择 100 个渠道'),
  )
  .transform((list) => [...new Set(list)]);

function checkRange(v: { from?: string | undefined; to?: string | undefined }, ctx: z.RefinementCtx) {
  if (!v.from || !v.to) return;
  const span = daysBetween(v.from, v.to);
  if (span < 1) ctx.addIssue({ code: 'custom', path: ['to'], message: '结束日期不能早于开始日期' });
  else if (span > FUNNEL_MAX_DAYS)
    ctx.addIssue({ code: 'custom', path: ['to'], message: `日期范围最多 ${FUNNEL_MAX_DAYS} 天` });
}

const rangeFields = {
  /** Shanghai calendar day; default: 6 days before `to`. */
  from: daySchema.optional(),
  /** Shanghai calendar day; default: today. */
  to: daySchema.optional(),
};

const filterFields = {
  ...rangeFields,
  /** One channel (joined with `channelCodes`). */
  channelCode: channelCodeSchema.optional(),
  channelCodes: channelCodeList.optional(),
  /** Only visitors shown this skin (events' skin, clicks' abTestType). */
  skin: z.coerce
    .number({ error: '皮肤编号必须是整数' })
    .int('皮肤编号必须是整数')
    .min(0, '皮肤编号超出范围')
    .max(999, '皮肤编号超出范围')
    .optional(),
};

/** GET /api/admin/funnel and /api/admin/funnel/trend */
export const funnelQuery = z.object(filterFields).superRefine(checkRange);
export type FunnelQuery = z.infer<typeof funnelQuery>;

export const FUNNEL_CHANNEL_SORTS = [
  'adChannelCode',
  'clicks',
  'visits',
  'logins',
  'submits',
  'authorizations',
  'credits',
  'loans',
  'conversion',
] as const;

/** GET /api/admin/funnel/by-channel */
export const funnelByChannelQuery = pageQuery
  .extend({
    ...filterFields,
    sort: z.enum(FUNNEL_CHANNEL_SORTS, { error: '排序字段无效' }).default('clicks'),
  })
  .superRefine(checkRange);
export type FunnelByChannelQuery = z.infer<typeof funnelByChannelQuery>;

/** GET /api/admin/funnel/arms */
export const funnelArmsQuery = z
  .object({ ...rangeFields, channelCode: channelCodeSchema })
  .superRefine(checkRange);
export type FunnelArmsQuery = z.infer<typeof funnelArmsQuery>;

const viewStepSchema = z.enum(FUNNEL_VIEW_STEPS);

const rangeData = {
  from: z.string(),
  to: z.string(),
  /** The channels counted; null = every channel (and visits without one). */
  channelCodes: z.array(z.string()).nullable(),
  skin: z.number().int().nullable(),
};

export const funnelStepRow = z.object({
  step: viewStepSchema,
  label: z.string(),
  /**
   * Visitors reaching the step: distinct devices per day (a session without a device id counts alone); 授信 and
   * 放款: distinct persons per day of their authorisation.
   */
  count: z.number().int(),
  /**
   * Analytics sessions that reported the step (clicks: counted clicks; 授信 and 放款: the authorisation
   * sessions whose person reached it).
   */
  sessions: z.number().int(),
  /** count / previous step's count, 0–1; null for the first step or when the previous step has none. */
  fromPrevious: z.number().nullable(),
  /** count / first step's count; null when the first step has none. */
  fromFirst: z.number().nullable(),
  /**
   * previous step's count − count (0 for the first step); null when more reached this step than the
   * previous one (some came another way, e.g. a new device) — never a negative drop-off.
   */
  dropOff: z.number().int().nullable(),
  /** dropOff / previous step's count; null when not defined. */
  dropOffRate: z.number().nullable(),
});
export type FunnelStepRow = z.infer<typeof funnelStepRow>;

/** A step beside the funnel (FUNNEL_SIDE_STEPS): its visitors, and a rate only where a base exists. */
export const funnelSideStepRow = z.object({
  step: viewStepSchema,
  label: z.string(),
  count: z.number().int(),
  sessions: z.number().int(),
  /** When the step is reported. */
  hint: z.string(),
  /** The step `rate` is measured from; null: no rate. */
  base: viewStepSchema.nullable(),
  baseLabel: z.string().nullable(),
  rate: z.number().nullable(),
});
export type FunnelSideStepRow = z.infer<typeof funnelSideStepRow>;

export const funnelData = z.object({
  ...rangeData,
  /** FUNNEL_PATH_STEPS in order. */
  steps: z.array(funnelStepRow),
  /** FUNNEL_SIDE_STEPS: shown beside the funnel. */
  sideSteps: z.array(funnelSideStepRow),
});
export type FunnelData = z.infer<typeof funnelData>;

export const funnelTrendData = z.object({
  ...rangeData,
  steps: z.array(z.object({ step: viewStepSchema, label: z.string() })),
  /** Every day of the range in order; `counts[i]` belongs to `steps[i]`. */
  days: z.array(z.object({ day: z.string(), counts: z.array(z.number().int()) })),
});
export type FunnelTrendData = z.infer<typeof funnelTrendData>;

export const funnelChannelRow = z.object({
  adChannelCode: z.string(),
  /** The channel's name; null for a code that is not (or no longer) a channel. */
  name: z.string().nullable(),
  clicks: z.number().int(),
  visits: z.number().int(),
  logins: z.number().int(),
  submits: z.number().int(),
  authorizations: z.number().int(),
  /** Persons who authorised through the channel and got a lender's approval (授信) / a funded loan (放款). */
  credits: z.number().int(),
  loans: z.number().int(),
  /** authorizations / clicks; null without clicks. */
  conversion: z.number().nullable(),
});
export type FunnelChannelRow = z.infer<typeof funnelChannelRow>;
export const funnelByChannelData = pageData(funnelChannelRow).extend(rangeData);
export type FunnelByChannelData = z.infer<typeof funnelByChannelData>;

export const zTestSchema = z.object({
  /** (arm rate − control rate) / pooled standard error; null when not computable. */
  z: z.number().nullable(),
  /** Two-sided p-value. */
  p: z.number().nullable(),
  /** Arm rate − control rate and its 95 % confidence interval (unpooled), as fractions. */
  diff: z.number().nullable(),
  ciLow: z.number().nullable(),
  ciHigh: z.number().nullable(),
  verdict: z.enum(['significant', 'not_significant', 'too_small', 'control']),
  /** Plain Chinese reading of the result. */
  verdictText: z.string(),
});
export type ZTestResult = z.infer<typeof zTestSchema>;

export const armStepSchema = z.object({
  step: viewStepSchema,
  label: z.string(),
  count: z.number().int(),
  /** count / the arm's base-step count. */
  rate: z.number().nullable(),
  test: zTestSchema,
});

export const armSchema = z.object({
  skin: z.number().int().nullable(),
  /** Configured share of traffic (weight), null for a skin seen in data but not configured. */
  weight: z.number().nullable(),
  isControl: z.boolean(),
  steps: z.array(armStepSchema),
});
export type FunnelArm = z.infer<typeof armSchema>;

export const funnelArmsData = z.object({
  from: z.string(),
  to: z.string(),
  adChannelCode: z.string(),
  /** The step every rate is measured from. */
  baseStep: viewStepSchema,
  /** Fewer visitors than this at the base step in either arm: no verdict. */
  minSample: z.number().int(),
  arms: z.array(armSchema),
});
export type FunnelArmsData = z.infer<typeof funnelArmsData>;

/** The channels a console account may pick in the funnel filters (a channel partner: its own). */
export const funnelChannelsData = z.array(z.object({ adChannelCode: z.string(), name: z.string() }));

/** What a dashboard figure counts: devices (before anyone logs in), persons, or leads. */
export const DASHBOARD_COUNTS = ['devices', 'people', 'leads'] as const;
export type DashboardCounts = (typeof DASHBOARD_COUNTS)[number];
export const DASHBOARD_COUNTS_LABELS: Record<DashboardCounts, string> = {
  devices: '按设备计',
  people: '按人计',
  leads: '按条计',
};

/** GET /api/admin/dashboard: today vs yesterday (Shanghai) and the last 14 days. */
export const dashboardFigure = z.object({
  key: z.string(),
  label: z.string(),
  today: z.number().int(),
  yesterday: z.number().int(),
  counts: z.enum(DASHBOARD_COUNTS),
  /** One sentence: what exactly is counted. */
  hint: z.string(),
});
export type DashboardFigure = z.infer<typeof dashboardFigure>;
export const dashboardData = z.object({
  today: z.string(),
  figures: z.array(dashboardFigure),
  /**
   * Clicks count devices; logins, submits and authorizations count persons (as the figures do); credits and
   * loans count persons on the day of their authorisation (as the funnel's 授信 and 放款).
   */
  trend: z.array(
    z.object({
      day: z.string(),
      clicks: z.number().int(),
      logins: z.number().int(),
      submits: z.number().int(),
      authorizations: z.number().int(),
      credits: z.number().int(),
      loans: z.number().int(),
    }),
  ),
});
export type DashboardData = z.infer<typeof dashboardData>;
