import { fenToYuanText } from '@lm/shared/money';

/** An amount as the console writes money: `12,345.67 元`; absent (a viewer) → —. */
export function yuanText(fen: number | undefined | null): string {
  return fen === undefined || fen === null ? '—' : fenToYuanText(fen, { grouping: true, unit: true });
}

/** The address of a printable statement. */
export function statementPath(month: string, type: string, code: string): string {
  return `/settlement/${month}/${type}/${encodeURIComponent(code)}`;
}
