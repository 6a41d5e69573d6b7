/**
 * Monthly statements, the month close, manual adjustments and payouts (issue 48.5 and 48.3, ADR 073):
 * /api/admin/settlement/*. Amounts are integer fen, signed from the party's account (a lender: what it owes us;
 * a channel: what we owe it). A viewer gets every amount field absent (not zero).
 */
import { z } from 'zod';
import { LEDGER_KINDS, MONTH_PATTERN, PARTY_TYPES, STATEMENT_STATUSES } from '../ledger.ts';

const monthSchema = z
  .string({ error: '请选择月份（YYYY-MM）' })
  .regex(MONTH_PATTERN, '月份格式应为 YYYY-MM（2000–2099 年），如 2026-11');

const partyTypeSchema = z.enum(PARTY_TYPES, { error: '对象类型应为 lender（机构）或 channel（渠道）' });

/** The largest amount an adjustment or a payout may carry: 10^12 fen (100 亿元). */
export const SETTLEMENT_MAX_FEN = 1_000_000_000_000;

/** GET /api/admin/settlement/statements?month=YYYY-MM (also the CSV and one statement). */
export const statementsQuery = z.object({ month: monthSchema });
export type StatementsQuery = z.infer<typeof statementsQuery>;

/** /api/admin/settlement/statements/:partyType/:code */
export const statementParams = z.object({
  partyType: partyTypeSchema,
  code: z.string().min(1, '请填写编码').max(64, '编码过长'),
});

/** /api/admin/settlement/months/:month/close */
export const monthParams = z.object({ month: monthSchema });

const partyCodeSchema = z
  .string({ error: '请选择机构或渠道' })
  .trim()
  .min(1, '请选择机构或渠道')
  .max(64, '编码过长');

/** POST /api/admin/settlement/adjustments — a signed manual adjustment with its reason (admin). */
export const adjustmentBody = z.object({
  partyType: partyTypeSchema,
  partyCode: partyCodeSchema,
  /** Signed fen, never 0: + adds to what the party owes us (lender) / what we owe it (channel). */
  amountFen: z
    .number({ error: '调整金额应为整数（分）' })
    .int('调整金额应为整数（分）')
    .refine((v) => v !== 0, '调整金额不能为 0')
    .refine((v) => Math.abs(v) <= SETTLEMENT_MAX_FEN, '调整金额绝对值最高 100 亿元'),
  reason: z
    .string({ error: '请填写调整原因' })
    .trim()
    .min(2, '调整原因至少 2 个字')
    .max(200, '调整原因最多 200 个字'),
  /** The open month to book it in (default: the current Shanghai month). */
  month: monthSchema.optional(),
});
export type AdjustmentBody = z.infer<typeof adjustmentBody>;

/** POST /api/admin/settlement/payouts — money that changed hands (admin), booked as −amount. */
export const payoutBody = z.object({
  partyType: partyTypeSchema,
  partyCode: partyCodeSchema,
  /** Positive fen: a lender's payment to us, or ours to a channel. */
  amountFen: z
    .number({ error: '付款金额应为整数（分）' })
    .int('付款金额应为整数（分）')
    .min(1, '付款金额应大于 0')
    .max(SETTLEMENT_MAX_FEN, '付款金额最高 100 亿元'),
  note: z
    .string({ error: '请填写付款说明' })
    .trim()
    .min(2, '付款说明至少 2 个字')
    .max(200, '付款说明最多 200 个字'),
});
export type PayoutBody = z.infer<typeof payoutBody>;

export const partySchema = z.object({
  type: z.enum(PARTY_TYPES),
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
});
export type Party = z.infer<typeof partySchema>;

/**
 * One party's statement of a month. Counts: a lender's own events; a channel's the events of the people it
 * brought (lender entries whose lead came from it) plus its clicks and registrations of the Shanghai month.
 * Amounts (absent for a viewer): sums of the party's entries booked in the month; `netFen` = their total.
 */
export const statementSchema = z.object({
  party: partySchema,
  /** Delivered leads (CPL events). */
  leads: z.number().int(),
  /** Returned leads (return entries). */
  returned: z.number().int(),
  /** Approved leads (CPA events). */
  approved: z.number().int(),
  /** Fundings (CPS events). */
  funded: z.number().int(),
  /** Channel only: counted clicks and new registrations of the Shanghai month. */
  clicks: z.number().int().optional(),
  registrations: z.number().int().optional(),
  /** Entries booked in the month, and how many of them belong to an earlier, closed month. */
  entries: z.number().int(),
  lateEntries: z.number().int(),
  /** Lender: lead revenue (+). Channel: 0. */
  revenueFen: z.number().int().optional(),
  /** Lender: what returns reversed, as a positive amount. */
  returnedFen: z.number().int().optional(),
  /** Channel: its cost (+). Lender: 0. */
  costFen: z.number().int().optional(),
  /** Manual adjustments (signed). */
  adjustmentFen: z.number().int().optional(),
  /** Payouts, as a positive amount (booked as −). */
  payoutFen: z.number().int().optional(),
  /** The sum of every entry of the party booked in the month. */
  netFen: z.number().int().optional(),
  status: z.enum(STATEMENT_STATUSES),
});
export type Statement = z.infer<typeof statementSchema>;

const monthHead = {
  month: z.string(),
  status: z.enum(STATEMENT_STATUSES),
  closedAt: z.string().optional(),
  closedByName: z.string().nullable().optional(),
  /** The current Shanghai month. */
  currentMonth: z.string(),
  /** Whether the month has ended and is still open (an admin may close it). */
  closable: z.boolean(),
  /** false for a viewer: no amount is sent. */
  amountsShown: z.boolean(),
};

export const statementsData = z.object({
  ...monthHead,
  /** Lenders first, then channels, each by code. */
  statements: z.array(statementSchema),
});
export type StatementsData = z.infer<typeof statementsData>;

export const statementEntrySchema = z.object({
  id: z.number().int(),
  kind: z.enum(LEDGER_KINDS),
  kindLabel: z.string(),
  model: z.string().nullable(),
  eventAt: z.string(),
  /** The Shanghai month of the event. */
  eventMonth: z.string(),
  /** Absent for a viewer. */
  amountFen: z.number().int().optional(),
  basisFen: z.number().int().nullable().optional(),
  reference: z.string(),
  leadId: z.number().int().nullable(),
  /** The lead's id as the lender knows it (its idempotency key). */
  leadKey: z.string().nullable(),
  productName: z.string().nullable(),
  reason: z.string().nullable(),
  staffName: z.string().nullable(),
  /** Booked in this month because its own month was closed already. */
  late: z.boolean(),
  createdAt: z.string(),
});
export type StatementEntry = z.infer<typeof statementEntrySchema>;

export const statementDetailData = z.object({
  ...monthHead,
  /** Our company (the configured operator) as the statement's issuer. */
  issuerName: z.string(),
  statement: statementSchema,
  /** Oldest first. */
  entries: z.array(statementEntrySchema),
});
export type StatementDetailData = z.infer<typeof statementDetailData>;

export const monthCloseData = z.object({
  month: z.string(),
  status: z.literal('closed'),
  closedAt: z.string(),
  closedByName: z.string().nullable(),
});
export type MonthCloseData = z.infer<typeof monthCloseData>;

/** What an adjustment or payout booked. */
export const bookedEntryData = z.object({
  id: z.number().int(),
  kind: z.enum(LEDGER_KINDS),
  party: partySchema,
  month: z.string(),
  amountFen: z.number().int(),
  reference: z.string(),
});
export type BookedEntryData = z.infer<typeof bookedEntryData>;
