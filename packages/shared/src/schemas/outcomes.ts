/** Lender outcomes (issue 47.4): the signed API a lender reports through, and the sandbox lender's trigger. */
import { z } from 'zod';
import { OUTCOME_STATUSES } from '../outcomes.ts';

const fen = (label: string) =>
  z
    .number({ error: `${label}须为整数（分）` })
    .int(`${label}须为整数（分）`)
    .positive(`${label}须大于 0`)
    .max(10_000_000_000, `${label}过大`);

const outcomeFields = {
  leadId: z.string({ error: '请填写 leadId' }).trim().min(1, '请填写 leadId').max(128, 'leadId 过长'),
  status: z.enum(OUTCOME_STATUSES, { error: `status 只能是 ${OUTCOME_STATUSES.join('、')}` }),
  /** Approved: the credit limit. */
  limitFen: fen('授信额度').optional(),
  /** Approved: the annual rate in basis points. */
  rateBps: z
    .number({ error: '利率须为整数（基点）' })
    .int('利率须为整数（基点）')
    .min(0)
    .max(100_000)
    .optional(),
  /** Declined: why, in the lender's words. */
  reason: z.string().trim().max(200, '原因最多 200 个字').optional(),
  /** Funded: the amount lent. */
  amountFen: fen('放款金额').optional(),
  termMonths: z.number({ error: '期限须为整数（月）' }).int().min(1).max(120).optional(),
};

const outcomeRules = <
  T extends { status: string; limitFen?: number | undefined; amountFen?: number | undefined },
>(
  b: T,
  ctx: z.RefinementCtx,
) => {
  if (b.status === 'approved' && b.limitFen === undefined)
    ctx.addIssue({ code: 'custom', path: ['limitFen'], message: '授信结果须包含授信额度 limitFen（分）' });
  if (b.status === 'funded' && b.amountFen === undefined)
    ctx.addIssue({ code: 'custom', path: ['amountFen'], message: '放款结果须包含放款金额 amountFen（分）' });
};

/**
 * `POST /api/partner/outcomes` (version 1, docs/products-api.md): one outcome of one lead, signed like the
 * partner callback (X-LM-Partner, X-LM-Timestamp, X-LM-Signature over the raw body). `transactionId` makes it
 * idempotent: the same id again is answered as the first time.
 */
export const lenderOutcomeBody = z
  .object({
    version: z.literal(1, { error: '仅支持 version 1' }).default(1),
    transactionId: z
      .string({ error: '请填写 transactionId' })
      .trim()
      .regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'transactionId 为 1 到 64 位字母、数字或 _.:-'),
    ...outcomeFields,
    /** When it happened at the lender (ISO 8601); default: when we received it. */
    occurredAt: z.iso.datetime({ offset: true, error: 'occurredAt 须为 ISO 8601 时间' }).optional(),
  })
  .superRefine(outcomeRules);
export type LenderOutcomeBody = z.infer<typeof lenderOutcomeBody>;

export const lenderOutcomeData = z.object({
  leadId: z.string(),
  transactionId: z.string(),
  /** The lead's outcome after this call. */
  outcome: z.enum(OUTCOME_STATUSES),
  /** True when this transaction id had been received before (nothing changed). */
  repeated: z.boolean(),
});

/** `POST /api/dev/partner-sandbox/{code}/outcomes`: the sandbox lender reports an outcome as a lender would. */
export const sandboxOutcomeBody = z.object(outcomeFields).superRefine(outcomeRules);
