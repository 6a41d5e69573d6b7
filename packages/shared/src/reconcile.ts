/**
 * Reconciliation of a lender's outcomes (issue 47.4): a lender's own list of our leads with the status it has
 * for each (a CSV file) compared with what it reported to us. Zod-free: the console reads the labels and the
 * limits from here; the server's rules are `apps/server/src/modules/outcomes/reconcile-rules.ts`.
 */
import { fenToYuanText } from './money.ts';
import { OUTCOME_LABELS, type OutcomeStatus } from './outcomes.ts';

/** The longest file taken, in characters (the request is also bound by BODY_LIMIT_BYTES, 1 MiB by default). */
export const RECONCILE_MAX_CHARS = 1_000_000;
/** The most data rows taken from one file. */
export const RECONCILE_MAX_ROWS = 20_000;
/** The most disagreements listed in one answer (the totals count them all). */
export const RECONCILE_MAX_LISTED = 2_000;

/**
 * What a row of the file disagrees about: a lead we do not know (or another lender's), a status or an amount
 * that differs from our record, a lead of ours the file leaves out, a row that cannot be read.
 */
export const RECONCILE_KINDS = [
  'unknown_lead',
  'status_differs',
  'amount_differs',
  'missing_in_file',
  'bad_row',
] as const;
export type ReconcileKind = (typeof RECONCILE_KINDS)[number];

export const RECONCILE_KIND_LABELS: Record<ReconcileKind, string> = {
  unknown_lead: '未知线索',
  status_differs: '状态不一致',
  amount_differs: '金额不一致',
  missing_in_file: '文件中缺少',
  bad_row: '无法读取的行',
};

/**
 * A status as the file states it: one of ours, or 未通过 — the person's word for declined or duplicate
 * (OUTCOME_LABELS), which agrees with either.
 */
export type FileStatus = OutcomeStatus | 'not_passed';

export const FILE_STATUS_LABELS: Record<FileStatus, string> = {
  received: '申请中',
  duplicate: '重复申请',
  approved: '已授信',
  declined: '已拒绝',
  funded: '已放款',
  not_passed: '未通过',
};

/** Our side in words: nothing reported yet reads 申请中, as the person's record shows it. */
export function ourStatusText(status: OutcomeStatus | null): string {
  if (status === null) return `${OUTCOME_LABELS.pending}（机构尚未反馈）`;
  return status === 'duplicate' || status === 'declined'
    ? FILE_STATUS_LABELS[status]
    : OUTCOME_LABELS[status];
}

/** The columns of the file as the console explains them (the server takes these names and aliases). */
export const RECONCILE_COLUMNS: readonly {
  name: string;
  aliases: string;
  required: boolean;
  text: string;
}[] = [
  { name: 'leadId', aliases: '线索编号', required: true, text: '推送给机构的线索编号（Idempotency-Key）' },
  {
    name: 'status',
    aliases: '状态',
    required: true,
    text: 'received/duplicate/approved/declined/funded，或 申请中/已授信/已放款/未通过',
  },
  {
    name: 'amount',
    aliases: '金额',
    required: false,
    text: '元，最多两位小数：已授信为授信额度，已放款为放款金额',
  },
  {
    name: 'occurredAt',
    aliases: '发生时间',
    required: false,
    text: '如 2026-03-01 14:05（北京时间）或 ISO 8601',
  },
];

/** Integer fen as exact yuan text: 1234567 → "12,345.67 元" (no floating point; @lm/shared/money). */
export function yuanText(fen: number): string {
  return fenToYuanText(fen, { grouping: true, unit: true });
}
