/**
 * Lead returns (issue 48.4), pure: whether a lender may return a lead now, whether staff should look at it,
 * and the ledger entries that reverse what the lead earned.
 */
import { RETURN_STATUS_LABELS, type ReturnReason, type ReturnStatus } from '@lm/shared/ledger';
import { BPS_WHOLE, bpsToPercentText, shanghaiMonthOf } from '@lm/shared/money';
import type { ReturnRefusalReason } from '@lm/shared/schemas/returns';
import { formatShanghai, shanghaiDayStart } from '@lm/shared/time';
import { LENDER_LOCK_CLASS, nextMonth } from '../ledger/rules.ts';

const DAY_MS = 86_400_000;

/**
 * The advisory lock class of a lender's returns (the key: its partner id): one return of a lender at a time,
 * and no lead revenue of the lender booked while one is being decided (the ledger's sweep takes it shared).
 */
export const RETURN_LOCK_CLASS = LENDER_LOCK_CLASS;

/** The reasons a return is reported to the ad platform as an invalid lead (ADR 072's negative signal). */
export const NEGATIVE_SIGNAL_REASONS: readonly ReturnReason[] = ['duplicate', 'invalid_phone', 'fraud'];

/** The ledger reference of a return's lender entry and of its reversed revenue share. */
export const returnRef = {
  lender: (returnId: number) => `return:${returnId}`,
  revShare: (returnId: number, extra = '') => `return:${returnId}:rev_share${extra}`,
};

/** The instants a Shanghai month `YYYY-MM` starts and ends (exclusive). */
export function monthRange(month: string): { from: Date; to: Date } {
  return { from: shanghaiDayStart(`${month}-01`), to: shanghaiDayStart(`${nextMonth(month)}-01`) };
}

/** The last instant a lead delivered at `deliveredAt` may be returned: `windowDays` × 24 h later. */
export function returnDeadline(deliveredAt: Date, windowDays: number): Date {
  return new Date(deliveredAt.getTime() + windowDays * DAY_MS);
}

/**
 * How many returns (accepted + disputed) a lender may have requested in a month: `maxRateBps` of the leads
 * delivered to it that month, rounded down — but at least 1 whenever the rate is above 0, so a lender with
 * few leads (or on the 1st, returning a lead of the day before) can still return its one bad lead. A rate of 0
 * allows none.
 */
export function allowedReturns(deliveredInMonth: number, maxRateBps: number): number {
  if (maxRateBps <= 0) return 0;
  return Math.max(1, Math.floor((deliveredInMonth * maxRateBps) / BPS_WHOLE));
}

export interface ReturnCheckInput {
  now: Date;
  /** The lead's delivery (null: not delivered). */
  deliveredAt: Date | null;
  windowDays: number;
  maxRateBps: number;
  /** The lead's return so far (any status), if it has one. */
  existing: { id: number; status: ReturnStatus } | null;
  /** The lender's leads delivered in the Shanghai month this lead was delivered in. */
  deliveredInMonth: number;
  /** The lender's returns (accepted + disputed) of leads delivered in that month, before this one. */
  returnedInMonth: number;
}

export type ReturnRefusal = { reason: ReturnRefusalReason; msg: string; data: Record<string, unknown> };

/** Why a return is refused (in this order: twice, not delivered, outside the window, over the rate); null: it may. */
export function returnRefusal(i: ReturnCheckInput): ReturnRefusal | null {
  if (i.existing)
    return {
      reason: 'already_returned',
      msg: `该线索已退回过（退回编号 ${i.existing.id}，${RETURN_STATUS_LABELS[i.existing.status]}），同一线索只能退回一次`,
      data: { returnId: i.existing.id, status: i.existing.status },
    };
  if (!i.deliveredAt)
    return {
      reason: 'not_delivered',
      msg: '该线索尚未成功推送给贵机构，不能退回',
      data: {},
    };
  const deadline = returnDeadline(i.deliveredAt, i.windowDays);
  if (i.now.getTime() > deadline.getTime())
    return {
      reason: 'window_passed',
      msg: `已超过退回期限：线索推送后 ${i.windowDays} 天内可退回（推送于 ${formatShanghai(i.deliveredAt.toISOString())}，截止 ${formatShanghai(deadline.toISOString())}）`,
      data: {
        windowDays: i.windowDays,
        deliveredAt: i.deliveredAt.toISOString(),
        deadline: deadline.toISOString(),
      },
    };
  const allowed = allowedReturns(i.deliveredInMonth, i.maxRateBps);
  if (i.returnedInMonth + 1 > allowed) {
    const month = shanghaiMonthOf(i.deliveredAt);
    return {
      reason: 'rate_exceeded',
      msg:
        i.maxRateBps === 0
          ? '贵机构的每月最高退回率为 0%，不能退回线索'
          : `超过每月最高退回率 ${bpsToPercentText(i.maxRateBps)}%：${month} 推送的 ${i.deliveredInMonth} 条线索最多可退回 ${allowed} 条，已退回 ${i.returnedInMonth} 条`,
      data: {
        month,
        maxRateBps: i.maxRateBps,
        delivered: i.deliveredInMonth,
        returned: i.returnedInMonth,
        allowed,
      },
    };
  }
  return null;
}

/**
 * Why staff should look at a return before it is reversed (null: accepted at once): a reason of "other", or a
 * lead the lender itself reported approved or funded (a lead it lent on is hardly a bad lead).
 */
export function disputeReasonOf(reason: ReturnReason, leadOutcome: string | null): string | null {
  const out: string[] = [];
  if (reason === 'other') out.push('退回原因为「其他」，需人工核实机构的说明');
  if (leadOutcome === 'approved') out.push('机构此前已报告该线索「已授信」');
  if (leadOutcome === 'funded') out.push('机构此前已报告该线索「已放款」');
  return out.length > 0 ? out.join('；') : null;
}

/** The status a new return gets. */
export function statusOf(disputeReason: string | null): ReturnStatus {
  return disputeReason ? 'disputed' : 'accepted';
}

/** What a lender entry needs of a booked ledger entry to be reversed. */
export interface BookedEntry {
  kind: string;
  partyType: string;
  partyId: number;
  partyCode: string;
  amountFen: number;
  reference: string;
  channelCode: string | null;
  /** The Shanghai month it was booked in. */
  month: string;
}

export interface ReversalInput {
  returnId: number;
  reason: ReturnReason;
  at: Date;
  lead: { id: number; productId: number; partnerId: number; partnerCode: string; channelCode: string | null };
  /** Every entry booked for the lead so far. */
  booked: readonly BookedEntry[];
}

/** A ledger entry to book (the ledger repository's EntryInput, without its database-only fields). */
export interface ReversalEntry {
  kind: 'return' | 'channel_cost';
  partyType: 'lender' | 'channel';
  partyId: number;
  partyCode: string;
  eventAt: Date;
  eventMonth: string;
  amountFen: number;
  reference: string;
  model: string | null;
  basisFen: number | null;
  quantity: number;
  leadId: number;
  productId: number;
  channelCode: string | null;
  reason: string;
}

/**
 * The month a return is booked against: the month the lead's delivery (its CPL entry; else its first revenue)
 * was booked in, so the statement that charged the lead nets it — or, when that month is closed, the ledger
 * moves it to the next open month (issue 48.5). A lead with nothing booked: the month of the return.
 */
export function reversalMonth(booked: readonly BookedEntry[], at: Date): string {
  const revenue = booked.filter((e) => e.kind === 'lead_revenue' && e.partyType === 'lender');
  const first = revenue.find((e) => e.reference.endsWith(':cpl')) ?? revenue[0];
  return first ? first.month : shanghaiMonthOf(at);
}

/**
 * The entries an accepted return books: on the lender, `return` = −(the lead's booked lead revenue), written
 * even when that is 0 (it counts the return on the statement); and, when the lead's revenue paid the channel a
 * share (`rev_share:` entries), a `channel_cost` = −(that share) per channel.
 */
export function reversalEntries(i: ReversalInput): ReversalEntry[] {
  const eventMonth = reversalMonth(i.booked, i.at);
  const revenue = i.booked
    .filter((e) => e.kind === 'lead_revenue' && e.partyType === 'lender')
    .reduce((s, e) => s + e.amountFen, 0);
  const base = {
    eventAt: i.at,
    eventMonth,
    quantity: 1,
    leadId: i.lead.id,
    productId: i.lead.productId,
    reason: i.reason,
  };
  const out: ReversalEntry[] = [
    {
      ...base,
      kind: 'return',
      partyType: 'lender',
      partyId: i.lead.partnerId,
      partyCode: i.lead.partnerCode,
      amountFen: 0 - revenue,
      reference: returnRef.lender(i.returnId),
      model: null,
      basisFen: revenue,
      channelCode: i.lead.channelCode,
    },
  ];
  const shares = new Map<number, { code: string; channelCode: string | null; sum: number }>();
  for (const e of i.booked) {
    if (e.kind !== 'channel_cost' || !e.reference.startsWith('rev_share:')) continue;
    const s = shares.get(e.partyId) ?? { code: e.partyCode, channelCode: e.channelCode, sum: 0 };
    s.sum += e.amountFen;
    shares.set(e.partyId, s);
  }
  for (const [partyId, s] of shares) {
    out.push({
      ...base,
      kind: 'channel_cost',
      partyType: 'channel',
      partyId,
      partyCode: s.code,
      amountFen: 0 - s.sum,
      reference: returnRef.revShare(i.returnId, shares.size > 1 ? `:${partyId}` : ''),
      model: 'rev_share',
      basisFen: s.sum,
      channelCode: s.channelCode,
    });
  }
  return out;
}

/** What a return took off the lender's account (≥ 0) from its `return` entry's amount; null: none booked. */
export function reversedFenOf(returnEntryAmount: number | null): number | null {
  return returnEntryAmount === null ? null : 0 - returnEntryAmount;
}
