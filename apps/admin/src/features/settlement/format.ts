import { RETURN_REASON_LABELS, RETURN_REASONS, type ReturnReason } from '@lm/shared/ledger';
import { fenToYuanText } from '@lm/shared/money';

/** An amount as the console writes money: `12,345.67 元`; absent (a viewer) → —. */
export function yuanText(fen: number | undefined | null): string {
  return fen === undefined || fen === null ? '—' : fenToYuanText(fen, { grouping: true, unit: true });
}

/** The address of a printable statement. */
export function statementPath(month: string, type: string, code: string): string {
  return `/settlement/${month}/${type}/${encodeURIComponent(code)}`;
}

/**
 * 说明 of a statement entry: a return's reason in words (重复线索…), an adjustment's or payout's text with who
 * made it, else the entry's reference (what it can be traced to: `lead:12:cpl`, `spend:3:2026-11-30:7`).
 */
export function entryNote(e: {
  kind: string;
  reason: string | null;
  staffName: string | null;
  reference: string;
}): string {
  if (!e.reason) return e.reference;
  const reason =
    e.kind === 'return' && (RETURN_REASONS as readonly string[]).includes(e.reason)
      ? RETURN_REASON_LABELS[e.reason as ReturnReason]
      : e.reason;
  return e.staffName ? `${reason}（${e.staffName}）` : reason;
}
