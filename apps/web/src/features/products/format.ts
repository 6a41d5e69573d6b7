/**
 * How a product's figures read (docs/products-api.md: amounts in fen, APR in basis points, terms in
 * months). Pure, unit-tested.
 */
import { groupThousands } from '@/lib/number';

const trim = (n: number) => String(Number(n.toFixed(2)));

/** 500000 fen → "5,000元"; 2000000 fen → "2万"; 1500000 fen → "1.5万"; 20000000 fen → "20万". */
export function formatAmount(fen: number): string {
  const yuan = Math.round(fen) / 100;
  if (yuan >= 10_000) return `${trim(yuan / 10_000)}万`;
  return `${Number.isInteger(yuan) ? groupThousands(yuan) : yuan.toFixed(2)}元`;
}

/** "1,000元-20万"; one figure when both ends agree. */
export function formatAmountRange(minFen: number, maxFen: number): string {
  if (minFen === maxFen) return formatAmount(maxFen);
  return `${formatAmount(minFen)}-${formatAmount(maxFen)}`;
}

/** 1800 bps → "年化 18.00%"; null → "年化利率以审批为准". */
export function formatApr(bps: number | null): string {
  if (bps === null || !Number.isFinite(bps)) return '年化利率以审批为准';
  return `年化 ${(bps / 100).toFixed(2)}%`;
}

/** 3–12 → "3-12个月"; 12–12 → "12个月". */
export function formatTerm(minMonths: number, maxMonths: number): string {
  return minMonths === maxMonths ? `${maxMonths}个月` : `${minMonths}-${maxMonths}个月`;
}

/** The first character of a name, for the logo tile of a lender without a logo. */
export function initialOf(name: string): string {
  return [...name.trim()][0] ?? '贷';
}
