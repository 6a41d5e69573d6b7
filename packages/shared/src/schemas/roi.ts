/**
 * ROI per channel, day or skin (issue 48.6, docs/money.md "ROI (48.6)"): GET /api/admin/roi.
 */
import { z } from 'zod';
import { dayFilterSchema } from './common.ts';
import { daysBetween, FUNNEL_VIEW_STEPS, zTestSchema } from './funnel.ts';

export const ROI_GROUPS = ['channel', 'day', 'skin'] as const;
export type RoiGroupBy = (typeof ROI_GROUPS)[number];
export const ROI_GROUP_LABELS: Record<RoiGroupBy, string> = { channel: '渠道', day: '日期', skin: '皮肤' };

/** The longest period one query covers (a year, leap day included). */
export const ROI_MAX_DAYS = 366;

/** GET /api/admin/roi?from=YYYY-MM-DD&to=YYYY-MM-DD&groupBy=channel|day|skin */
export const roiQuery = z
  .object({
    from: dayFilterSchema,
    to: dayFilterSchema,
    groupBy: z
      .enum(ROI_GROUPS, { error: '分组方式应为 channel（渠道）、day（日期）或 skin（皮肤）' })
      .default('channel'),
  })
  .superRefine((v, ctx) => {
    const span = daysBetween(v.from, v.to);
    if (span < 1) ctx.addIssue({ code: 'custom', path: ['to'], message: '结束日期不能早于开始日期' });
    else if (span > ROI_MAX_DAYS)
      ctx.addIssue({ code: 'custom', path: ['to'], message: `日期范围最多 ${ROI_MAX_DAYS} 天` });
  });
export type RoiQuery = z.infer<typeof roiQuery>;

/** Volumes every role sees. */
const volumes = {
  /** Counted channel clicks (once per device, channel and Shanghai day). */
  clicks: z.number().int(),
  /** People registered (users created). */
  registrations: z.number().int(),
  /** Leads created (one per consented product). */
  leads: z.number().int(),
  /** Leads whose first approval (授信, or a loan) came that day and still stand. */
  approved: z.number().int(),
  /** Leads whose first loan (放款) came that day. */
  funded: z.number().int(),
  /** Return entries booked for events of the period. */
  returns: z.number().int(),
};

/** Amounts: absent for a viewer (`amountsShown: false`). */
const amounts = {
  /** Channel cost entries + adjustments on channels, fen. */
  costFen: z.number().int().optional(),
  /** Lead revenue entries, fen. */
  revenueFen: z.number().int().optional(),
  /** What returns reversed (−sum of return entries), fen. */
  returnedFen: z.number().int().optional(),
  /** revenueFen − returnedFen − costFen. */
  marginFen: z.number().int().optional(),
  /** marginFen × 10 000 / costFen (basis points, half away from zero); null without cost. */
  roiBps: z.number().int().nullable().optional(),
  /** costFen / leads (half away from zero); null without leads. */
  costPerLeadFen: z.number().int().nullable().optional(),
  /** groupBy=skin: (revenueFen − returnedFen) / clicks; null without clicks. */
  revenuePerVisitorFen: z.number().int().nullable().optional(),
};

export const roiRowSchema = z.object({
  /** adChannelCode ('' = no channel), the Shanghai day, or the skin number as text ('' = unknown). */
  key: z.string(),
  /** The channel's name, `skin17`; none for a day. */
  label: z.string().optional(),
  ...volumes,
  ...amounts,
});
export type RoiRow = z.infer<typeof roiRowSchema>;

export const roiTotalsSchema = z.object({ ...volumes, ...amounts });
export type RoiTotals = z.infer<typeof roiTotalsSchema>;

/** One arm of a channel's skin A/B test: its money per visitor and the A/B page's z-test of `step`. */
export const roiAbArmSchema = z.object({
  skin: z.number().int().nullable(),
  isControl: z.boolean(),
  weight: z.number().nullable(),
  /** Counted clicks of the arm (the A/B page's base step). */
  visitors: z.number().int(),
  revenueFen: z.number().int().optional(),
  returnedFen: z.number().int().optional(),
  revenuePerVisitorFen: z.number().int().nullable().optional(),
  /** Visitors of the arm who reached `step`, and the rate per visitor. */
  count: z.number().int(),
  rate: z.number().nullable(),
  /** The A/B page's two-proportion z-test of `step` against the control arm. */
  test: zTestSchema,
});
export const roiAbTestSchema = z.object({
  adChannelCode: z.string(),
  name: z.string(),
  /** The funnel step whose rate the significance is about. */
  step: z.enum(FUNNEL_VIEW_STEPS),
  stepLabel: z.string(),
  minSample: z.number().int(),
  arms: z.array(roiAbArmSchema),
});
export type RoiAbTest = z.infer<typeof roiAbTestSchema>;

export const roiData = z.object({
  from: z.string(),
  to: z.string(),
  groupBy: z.enum(ROI_GROUPS),
  rows: z.array(roiRowSchema),
  totals: roiTotalsSchema,
  /** groupBy=skin: the channels running a skin A/B test with clicks in the period; [] otherwise. */
  abTests: z.array(roiAbTestSchema),
  /** false for a viewer: no amount (`*Fen`, `roiBps`) is sent. */
  amountsShown: z.boolean(),
});
export type RoiData = z.infer<typeof roiData>;
