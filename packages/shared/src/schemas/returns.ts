/**
 * Lead returns (issue 48.4): the signed API a lender returns a lead through, the sandbox lender's trigger, and
 * the console's list and review of returns.
 */
import { z } from 'zod';
import { RETURN_REASONS, RETURN_STATUSES } from '../ledger.ts';
import { pageData, pageQuery } from './admin.ts';

/** The most a lender's return window may be, in days (the lender form). */
export const RETURN_WINDOW_DAYS = { min: 1, max: 90, default: 7 } as const;
/** The lender's monthly return rate limit, in bps (0: no returns at all; 10 000: every lead). */
export const RETURN_RATE_BPS = { min: 0, max: 10_000, default: 2000 } as const;

const returnFields = {
  /** The lead as the lender knows it: the Idempotency-Key it was delivered with. */
  leadId: z.string({ error: '请填写 leadId' }).trim().min(1, '请填写 leadId').max(128, 'leadId 过长'),
  reason: z.enum(RETURN_REASONS, { error: `reason 只能是 ${RETURN_REASONS.join('、')}` }),
  /** In the lender's words; required for `other`. */
  reasonText: z.string({ error: 'reasonText 须为文字' }).trim().max(200, '退回说明最多 200 个字').optional(),
};

const returnRules = <T extends { reason: string; reasonText?: string | undefined }>(
  b: T,
  ctx: z.RefinementCtx,
) => {
  if (b.reason === 'other' && !b.reasonText)
    ctx.addIssue({
      code: 'custom',
      path: ['reasonText'],
      message: '退回原因为 other（其他）时须填写 reasonText',
    });
};

/**
 * `POST /api/partner/returns` (version 1, docs/products-api.md): a lender returns one delivered lead, signed like
 * the outcomes call (X-LM-Partner, X-LM-Timestamp, X-LM-Signature over the raw body). `transactionId` makes it
 * idempotent: the same id again is answered as the first time (`repeated: true`).
 */
export const lenderReturnBody = z
  .object({
    version: z.literal(1, { error: '仅支持 version 1' }).default(1),
    transactionId: z
      .string({ error: '请填写 transactionId' })
      .trim()
      .regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'transactionId 为 1 到 64 位字母、数字或 _.:-'),
    ...returnFields,
  })
  .superRefine(returnRules);
export type LenderReturnBody = z.infer<typeof lenderReturnBody>;

export const lenderReturnData = z.object({
  returnId: z.number().int(),
  leadId: z.string(),
  transactionId: z.string(),
  reason: z.enum(RETURN_REASONS),
  /** accepted: the lead's revenue is reversed; disputed: staff will look at it; rejected: staff refused it. */
  status: z.enum(RETURN_STATUSES),
  /** Why it waits for staff (disputed), in words; null otherwise. */
  disputeReason: z.string().nullable(),
  /** What was taken off the lender's account (fen, ≥ 0); null while nothing is reversed (disputed, rejected). */
  reversedFen: z.number().int().nullable(),
  /** True when this transaction id had been received before (nothing changed). */
  repeated: z.boolean(),
});
export type LenderReturnData = z.infer<typeof lenderReturnData>;

/** `POST /api/dev/partner-sandbox/{code}/returns`: the sandbox lender returns a lead as a lender would. */
export const sandboxReturnBody = z.object(returnFields).superRefine(returnRules);
export type SandboxReturnBody = z.infer<typeof sandboxReturnBody>;

/** Why a return is refused (409 `data.reason`). */
export const RETURN_REFUSALS = [
  'not_delivered',
  'window_passed',
  'already_returned',
  'rate_exceeded',
] as const;
export type ReturnRefusalReason = (typeof RETURN_REFUSALS)[number];

/* —— the console —— */

/** GET /api/admin/returns — newest first. */
export const adminReturnsQuery = pageQuery.pick({ page: true, pageSize: true }).extend({
  status: z.enum(RETURN_STATUSES, { error: '状态只能是 accepted、disputed 或 rejected' }).optional(),
  partnerId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});
export type AdminReturnsQuery = z.infer<typeof adminReturnsQuery>;

export const adminReturnItem = z.object({
  id: z.number().int(),
  leadId: z.number().int(),
  /** The lead as the lender knows it (its Idempotency-Key). */
  leadKey: z.string(),
  partnerId: z.number().int(),
  partnerName: z.string(),
  productId: z.number().int(),
  productName: z.string(),
  transactionId: z.string(),
  reason: z.enum(RETURN_REASONS),
  reasonLabel: z.string(),
  reasonText: z.string().nullable(),
  status: z.enum(RETURN_STATUSES),
  statusLabel: z.string(),
  disputeReason: z.string().nullable(),
  requestedAt: z.string(),
  deliveredAt: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  reviewedByName: z.string().nullable(),
  reviewNote: z.string().nullable(),
  /** What was taken off the lender's account (fen); null: nothing reversed. Absent for a viewer. */
  reversedFen: z.number().int().nullable().optional(),
});
export type AdminReturnItem = z.infer<typeof adminReturnItem>;

export const adminReturnList = pageData(adminReturnItem).extend({
  /** false for a viewer: no amount is sent. */
  amountsShown: z.boolean(),
});
export type AdminReturnList = z.infer<typeof adminReturnList>;

/** POST /api/admin/returns/:id/accept | /reject — why, for the audit log. */
export const returnReviewBody = z.object({
  note: z
    .string({ error: '请填写审核说明' })
    .trim()
    .min(2, '请填写审核说明（至少 2 个字）')
    .max(200, '审核说明最多 200 字'),
});
export type ReturnReviewBody = z.infer<typeof returnReviewBody>;
