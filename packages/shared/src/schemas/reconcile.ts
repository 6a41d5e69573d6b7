/**
 * `POST /api/admin/partners/{id}/outcomes/reconcile` (issue 47.4): a lender's CSV of our leads and the status it
 * has for each, compared with its reports to us; the answer lists the disagreements (nothing is written to the
 * outcomes). The file's format: docs/products-api.md "Reconciliation".
 */
import { z } from 'zod';
import { OUTCOME_STATUSES } from '../outcomes.ts';
import { RECONCILE_KINDS, RECONCILE_MAX_CHARS } from '../reconcile.ts';
import { dayFilterSchema } from './common.ts';

const emptyAsAbsent = (v: unknown) =>
  v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v;

export const reconcileBody = z
  .object({
    /** The file's text (UTF-8 as read by the console; a leading BOM is ignored). */
    csv: z
      .string({ error: '请上传对账文件（CSV 文本）' })
      .max(RECONCILE_MAX_CHARS, `对账文件过大：最多 ${RECONCILE_MAX_CHARS} 个字符，请按日期拆分后分别对账`)
      .refine((v) => v.trim().length > 0, '对账文件是空的'),
    /**
     * The Shanghai days of delivery the file covers (both or neither): a lead of this lender delivered within
     * them and absent from the file is listed. Without them: a lead with an outcome reported and absent from it.
     */
    from: z.preprocess(emptyAsAbsent, dayFilterSchema.optional()),
    to: z.preprocess(emptyAsAbsent, dayFilterSchema.optional()),
  })
  .superRefine((b, ctx) => {
    if ((b.from === undefined) !== (b.to === undefined))
      ctx.addIssue({
        code: 'custom',
        path: [b.from === undefined ? 'from' : 'to'],
        message: '文件覆盖的推送日期须同时填写开始和结束日期',
      });
    else if (b.from !== undefined && b.to !== undefined && b.from > b.to)
      ctx.addIssue({ code: 'custom', path: ['to'], message: '结束日期不能早于开始日期' });
  });
export type ReconcileBody = z.infer<typeof reconcileBody>;

const outcomeStatus = z.enum(OUTCOME_STATUSES);

export const reconcileDisagreement = z.object({
  kind: z.enum(RECONCILE_KINDS),
  /** The file's line (1 is the header); null for a lead the file leaves out. */
  line: z.number().int().nullable(),
  /** The lead's key as the lender received it (its Idempotency-Key), as far as the row names one. */
  leadId: z.string().nullable(),
  /** The person of our lead (the console links to their record); null when it is not this lender's lead of ours. */
  userId: z.number().int().nullable(),
  /** What the file says; null for a lead the file leaves out. */
  theirs: z
    .object({
      /** The status as written in the file. */
      statusText: z.string(),
      /** …and as read (null: not readable). */
      status: z.enum([...OUTCOME_STATUSES, 'not_passed']).nullable(),
      amountFen: z.number().int().nullable(),
      occurredAt: z.string().nullable(),
    })
    .nullable(),
  /** Our record; null for a lead we do not know as this lender's. */
  ours: z
    .object({
      /** `leads.outcome`: null, nothing reported yet. */
      status: outcomeStatus.nullable(),
      /** The amount of our status: the latest approved limit, or the latest funded amount. */
      amountFen: z.number().int().nullable(),
      deliveredAt: z.string().nullable(),
    })
    .nullable(),
  /** The disagreement in words. */
  text: z.string(),
});
export type ReconcileDisagreement = z.infer<typeof reconcileDisagreement>;

export const reconcileData = z.object({
  partnerId: z.number().int(),
  partnerCode: z.string(),
  /** The delivery days the file covers, as given; null: leads with an outcome were expected in it. */
  period: z.object({ from: z.string(), to: z.string() }).nullable(),
  totals: z.object({
    /** Data rows read (blank lines aside). */
    rows: z.number().int(),
    /** Rows that agree with our record. */
    matched: z.number().int(),
    /** Every disagreement (rows that disagree, and leads of ours the file leaves out). */
    disagreements: z.number().int(),
    unknownLead: z.number().int(),
    statusDiffers: z.number().int(),
    amountDiffers: z.number().int(),
    missingInFile: z.number().int(),
    badRows: z.number().int(),
  }),
  /** The first RECONCILE_MAX_LISTED disagreements: the file's rows in order, then the leads it leaves out. */
  disagreements: z.array(reconcileDisagreement),
  /** More disagreements than listed. */
  truncated: z.boolean(),
});
export type ReconcileData = z.infer<typeof reconcileData>;
