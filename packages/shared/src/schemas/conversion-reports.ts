/**
 * The console's view of a channel's conversion reports (回传记录, issue 47.6) and the replay of a dead one
 * (issue 47.3): what was reported to the ad platform, what waits, what failed with the platform's answer.
 * Nothing personal: the click is shown by the last characters of its click parameter only.
 */
import { z } from 'zod';
import { AD_PLATFORMS } from '../ad-clicks.ts';
import { AD_REPORT_STATUSES, CONVERSION_STEPS, NEGATIVE_STEP } from '../conversions.ts';
import { pageQuery } from './admin.ts';

/** What a report can be of: one of our steps, or the negative signal of an invalid lead (`invalid`). */
export const REPORT_STEPS = [...CONVERSION_STEPS, NEGATIVE_STEP] as const;

/** GET /api/admin/channels/:id/conversion-reports — newest first, filtered by status and step. */
export const conversionReportsQuery = pageQuery.pick({ page: true, pageSize: true }).extend({
  pageSize: z.coerce
    .number({ error: '每页条数必须是数字' })
    .int('每页条数必须是整数')
    .min(1, '每页至少 1 条')
    .max(100, '每页最多 100 条')
    .default(20),
  status: z.enum(AD_REPORT_STATUSES, { error: `回传状态只能是 ${AD_REPORT_STATUSES.join('、')}` }).optional(),
  step: z.enum(REPORT_STEPS, { error: `回传步骤只能是 ${REPORT_STEPS.join('、')}` }).optional(),
});
export type ConversionReportsQuery = z.infer<typeof conversionReportsQuery>;

/** POST /api/admin/conversion-reports/:id/replay */
export const conversionReportIdParams = z.object({
  id: z.coerce
    .number({ error: '回传记录编号必须是数字' })
    .int('回传记录编号无效')
    .positive('回传记录编号无效')
    .max(2_147_483_647, '回传记录编号无效'),
});

export const conversionReportItem = z.object({
  id: z.number().int(),
  platform: z.enum(AD_PLATFORMS),
  step: z.enum(REPORT_STEPS),
  /** The step in words (REPORT_STEP_LABELS: 注册 … 放款, 无效线索（负向回传）). */
  stepLabel: z.string(),
  eventCode: z.string(),
  /** The value sent with the event (fen), null when none goes. */
  valueFen: z.number().int().nullable(),
  status: z.enum(AD_REPORT_STATUSES),
  /** Attempts since it was written or last replayed. */
  attempts: z.number().int(),
  /** Why the last attempt failed (kept after a replay until the next attempt), null after a success. */
  lastError: z.string().nullable(),
  /** The platform's answer to the last attempt, as stored (at most 200 characters). */
  answer: z.string().nullable(),
  /** The click it is reported against: the last 6 characters of its click parameter after "…". */
  clickRef: z.string(),
  happenedAt: z.string(),
  sentAt: z.string().nullable(),
  /** When the worker tries next (pending only). */
  nextAttemptAt: z.string().nullable(),
  updatedAt: z.string(),
});
export type ConversionReportItem = z.infer<typeof conversionReportItem>;

export const conversionReportCounts = z.object({
  pending: z.number().int(),
  sent: z.number().int(),
  dead: z.number().int(),
  late: z.number().int(),
});

export const conversionReportsData = z.object({
  channelId: z.number().int(),
  adChannelCode: z.string(),
  /** Per status, the channel's reports of the step filter (the status filter aside). */
  counts: conversionReportCounts,
  /** The reports matching every filter. */
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  list: z.array(conversionReportItem),
});
export type ConversionReportsData = z.infer<typeof conversionReportsData>;
