/**
 * The console's per-lender outcomes (机构反馈, issue 47.6): of the leads a lender was sent in a range of
 * Shanghai days, how many stand at each outcome, the amounts approved and lent, how long the lender took to
 * answer, and its latest reports.
 */
import { z } from 'zod';
import { OUTCOME_STATUSES } from '../outcomes.ts';
import { dayFilterSchema } from './common.ts';
import { daysBetween, FUNNEL_MAX_DAYS } from './funnel.ts';

/** Days covered when the query names no range: today and the 29 days before. */
export const PARTNER_OUTCOMES_DEFAULT_DAYS = 30;
/** The longest range one query may cover (as the funnel's). */
export const PARTNER_OUTCOMES_MAX_DAYS = FUNNEL_MAX_DAYS;
/** Latest outcomes listed. */
export const PARTNER_OUTCOMES_LATEST = 50;

/** A lead's outcome as counted: `pending` — the lender has reported nothing yet. */
export const OUTCOME_COUNT_KEYS = ['pending', ...OUTCOME_STATUSES] as const;
export type OutcomeCountKey = (typeof OUTCOME_COUNT_KEYS)[number];

/** GET /api/admin/partners/:id/outcomes?from&to */
export const partnerOutcomesQuery = z
  .object({
    /** Shanghai calendar day; default: 29 days before `to`. */
    from: dayFilterSchema.optional(),
    /** Shanghai calendar day; default: today. */
    to: dayFilterSchema.optional(),
  })
  .superRefine((v, ctx) => {
    if (!v.from || !v.to) return;
    const span = daysBetween(v.from, v.to);
    if (span < 1) ctx.addIssue({ code: 'custom', path: ['to'], message: '结束日期不能早于开始日期' });
    else if (span > PARTNER_OUTCOMES_MAX_DAYS)
      ctx.addIssue({ code: 'custom', path: ['to'], message: `日期范围最多 ${PARTNER_OUTCOMES_MAX_DAYS} 天` });
  });
export type PartnerOutcomesQuery = z.infer<typeof partnerOutcomesQuery>;

/** Seconds from a lead's delivery to a report: median and 90th percentile (null: no lead reached it). */
export const outcomeLatencySchema = z.object({
  /** Leads the figures are taken over. */
  count: z.number().int(),
  medianSeconds: z.number().int().nullable(),
  p90Seconds: z.number().int().nullable(),
});
export type OutcomeLatency = z.infer<typeof outcomeLatencySchema>;

/** One report of the lender, newest first. */
export const partnerOutcomeItemSchema = z.object({
  id: z.number().int(),
  /** The lead (console id; the lead's page shows it in full). */
  leadId: z.number().int(),
  /** The lead's person (console id). */
  userId: z.number().int(),
  /** The first 8 characters of the lead's key as the lender knows it (its `leadId`). */
  leadKeyShort: z.string(),
  productName: z.string(),
  transactionId: z.string(),
  status: z.enum(OUTCOME_STATUSES),
  /** OUTCOME_LABELS of the status (as the person reads it). */
  label: z.string(),
  limitFen: z.number().int().nullable(),
  rateBps: z.number().int().nullable(),
  amountFen: z.number().int().nullable(),
  termMonths: z.number().int().nullable(),
  reason: z.string().nullable(),
  /** It moved the lead's outcome. */
  applied: z.boolean(),
  /** An earlier report of this lead had the same status. */
  repeated: z.boolean(),
  /** It moved nothing and repeats nothing: a step behind the lead's later one (an approval after the loan). */
  late: z.boolean(),
  occurredAt: z.string(),
  receivedAt: z.string(),
});
export type PartnerOutcomeItem = z.infer<typeof partnerOutcomeItemSchema>;

export const partnerOutcomesData = z.object({
  partnerId: z.number().int(),
  partnerName: z.string(),
  from: z.string(),
  to: z.string(),
  /** Leads delivered to the lender in the range (by delivery time). */
  delivered: z.number().int(),
  /** Those leads by their current outcome, in OUTCOME_COUNT_KEYS order. */
  counts: z.array(z.object({ key: z.enum(OUTCOME_COUNT_KEYS), label: z.string(), count: z.number().int() })),
  /** Credit limits of those leads now approved or funded (the latest approval's limit of each), in fen. */
  approvedFen: z.number().int(),
  /** Amounts lent on those leads now funded (the latest funding's amount of each), in fen. */
  fundedFen: z.number().int(),
  /** From delivery to the lender's first report, to its first approval and to its first funding. */
  latency: z.object({
    firstOutcome: outcomeLatencySchema,
    approved: outcomeLatencySchema,
    funded: outcomeLatencySchema,
  }),
  /** The lender's latest reports received in the range, newest first (at most PARTNER_OUTCOMES_LATEST). */
  latest: z.array(partnerOutcomeItemSchema),
});
export type PartnerOutcomesData = z.infer<typeof partnerOutcomesData>;
