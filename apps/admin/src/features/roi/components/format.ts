import { bpsToPercentText, fenToYuanText } from '@lm/shared/money';

/** Fen as yuan with thousands separators ("12,345.67"); "—" when absent. */
export function yuan(fen: number | null | undefined): string {
  return fen === null || fen === undefined ? '—' : fenToYuanText(fen, { grouping: true });
}

/** An axis label: whole yuan when there are no cents ("2,500"). */
export function yuanAxis(fen: number): string {
  return fenToYuanText(fen, { grouping: true, trimZeroCents: true });
}

/** ROI in basis points as a percentage ("99.8%", "-100%"); "—" without cost. */
export function roiPercent(bps: number | null | undefined): string {
  return bps === null || bps === undefined ? '—' : `${bpsToPercentText(bps)}%`;
}

/** A count with thousands separators. */
export function count(n: number | null | undefined): string {
  return n === null || n === undefined ? '—' : n.toLocaleString('zh-CN');
}

/** The rows with the largest and smallest margins: up to `n` each, the best first / the worst first, no overlap. */
export function topAndBottom<T extends { marginFen?: number | undefined }>(
  rows: readonly T[],
  n: number,
): { top: T[]; bottom: T[] } {
  const withMargin = rows.filter((r) => r.marginFen !== undefined);
  const sorted = [...withMargin].sort((a, b) => (b.marginFen ?? 0) - (a.marginFen ?? 0));
  const top = sorted.slice(0, n);
  const bottom = sorted.slice(top.length).reverse().slice(0, n);
  return { top, bottom };
}
