/**
 * Lender outcomes (issue 47.4): what a lender reports about a lead — received, duplicate, approved, declined,
 * funded — and the rule that keeps a lead's outcome sane when calls repeat or arrive out of order.
 */
import { fenToYuanText } from './money.ts';

export const OUTCOME_STATUSES = ['received', 'duplicate', 'approved', 'declined', 'funded'] as const;
export type OutcomeStatus = (typeof OUTCOME_STATUSES)[number];

/** As the person's record and the console show a lead's outcome. */
export const OUTCOME_LABELS: Record<OutcomeStatus | 'pending', string> = {
  pending: '申请中',
  received: '申请中',
  duplicate: '未通过',
  approved: '已授信',
  declined: '未通过',
  funded: '已放款',
};

/**
 * What exactly the lender said, for the console beside OUTCOME_LABELS (which merge 已受理 with 未反馈 as 申请中,
 * and a duplicate with a decline as 未通过); `pending`: nothing reported yet.
 */
export const OUTCOME_DETAIL_LABELS: Record<OutcomeStatus | 'pending', string> = {
  pending: '未反馈',
  received: '已受理',
  duplicate: '重复线索',
  approved: '授信通过',
  declined: '审批拒绝',
  funded: '已放款',
};

/**
 * What an incoming outcome does to a lead whose outcome so far is `current` (null: none yet):
 * `apply` — the lead's outcome becomes it; `keep` — recorded, the lead stays where it is (a late or repeated
 * step behind a later one: approved after funded, received after approved); `refuse` — it cannot happen (a
 * declined or duplicate lead funded or approved, a funded one declined).
 */
export function outcomeTransition(
  current: OutcomeStatus | null,
  incoming: OutcomeStatus,
): 'apply' | 'keep' | 'refuse' {
  const closed = current === 'declined' || current === 'duplicate';
  switch (incoming) {
    case 'received':
      return current === null ? 'apply' : 'keep';
    case 'duplicate':
      return current === null || current === 'received'
        ? 'apply'
        : current === 'duplicate'
          ? 'keep'
          : 'refuse';
    case 'declined':
      if (current === 'funded' || current === 'duplicate') return 'refuse';
      return current === 'declined' ? 'keep' : 'apply';
    case 'approved':
      if (closed) return 'refuse';
      return current === 'approved' || current === 'funded' ? 'keep' : 'apply';
    case 'funded':
      return closed ? 'refuse' : 'apply';
  }
}

/**
 * An outcome's amount (integer fen) in yuan as the console and the person's record write it: 2000000 →
 * "20,000 元", 1234567 → "12,345.67 元" (cents only when there are any).
 */
export function outcomeYuan(fen: number): string {
  return fenToYuanText(fen, { grouping: true, unit: true, trimZeroCents: true });
}

/** The money and terms of one outcome report, as the console shows them: "额度 20,000 元 · 年化 18.00%", "放款 12,345.67 元 · 12 期". */
export function outcomeTermsText(o: {
  limitFen: number | null;
  rateBps: number | null;
  amountFen: number | null;
  termMonths: number | null;
}): string {
  const parts: string[] = [];
  if (o.limitFen !== null) parts.push(`额度 ${outcomeYuan(o.limitFen)}`);
  if (o.rateBps !== null) parts.push(`年化 ${(o.rateBps / 100).toFixed(2)}%`);
  if (o.amountFen !== null) parts.push(`放款 ${outcomeYuan(o.amountFen)}`);
  if (o.termMonths !== null) parts.push(`${o.termMonths} 期`);
  return parts.length ? parts.join(' · ') : '—';
}
