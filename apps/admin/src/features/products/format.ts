import { bpsToPercentText, fenToYuanText } from '@lm/shared/money';
import type { ProductStatusValue } from '@lm/shared/schemas/admin-catalog';
import type { ProductPrice } from '@lm/shared/schemas/product-prices';

/** The tag colour of a product's status (list and detail). */
export const PRODUCT_STATUS_COLORS: Record<ProductStatusValue, string> = {
  draft: 'default',
  published: 'green',
  paused: 'orange',
};

/** Console number formats for products: APR shown in % (stored in bps), money in yuan (stored in fen). */

/** 1800 → "18.00%"; null → "未填写". */
export function formatApr(bps: number | null | undefined): string {
  return bps === null || bps === undefined ? '未填写' : `${(bps / 100).toFixed(2)}%`;
}

/** 18.5 (%) → 1850 (bps), rounded to a whole basis point; empty → null. */
export function percentToBps(percent: number | null | undefined): number | null {
  if (percent === null || percent === undefined || Number.isNaN(percent)) return null;
  return Math.round(percent * 100);
}

export function bpsToPercent(bps: number | null | undefined): number | null {
  return bps === null || bps === undefined ? null : bps / 100;
}

/** Yuan (may have 2 decimals) → whole fen. */
export function yuanToFen(yuan: number | null | undefined): number | null {
  if (yuan === null || yuan === undefined || Number.isNaN(yuan)) return null;
  return Math.round(yuan * 100);
}

export function fenToYuan(fen: number | null | undefined): number | null {
  return fen === null || fen === undefined ? null : fen / 100;
}

/** 500000 fen → "5,000元". */
export function formatYuan(fen: number): string {
  return `${(fen / 100).toLocaleString('zh-CN', { maximumFractionDigits: 2 })}元`;
}

/** A cap counter: "7 / 500" or "7 / 不限", with the share used (0–100) when capped. */
export function capUsage(count: number, cap: number | null): { text: string; percent: number | null } {
  if (cap === null) return { text: `${count} / 不限`, percent: null };
  const percent = cap === 0 ? 100 : Math.min(100, Math.round((count / cap) * 100));
  return { text: `${count} / ${cap}`, percent };
}

/** Region codes ↔ the city picker's paths: a province code (xx0000) is the whole province. */
export function codesToPaths(codes: readonly string[] | undefined): string[][] {
  return (codes ?? []).map((c) => (c.endsWith('0000') ? [c] : [`${c.slice(0, 2)}0000`, c]));
}

export function pathsToCodes(paths: readonly (readonly (string | number)[])[]): string[] {
  return paths.map((p) => String(p[p.length - 1]));
}

/** A lead price as staff read it: "3,500.00 元 / 条", "放款金额的 1.5%"; a viewer's (no amount) "金额不公开". */
export function priceText(p: Pick<ProductPrice, 'amountFen' | 'bps'>): string {
  if (p.amountFen !== undefined) return `${fenToYuanText(p.amountFen, { grouping: true, unit: true })} / 条`;
  if (p.bps !== undefined) return `放款金额的 ${bpsToPercentText(p.bps)}%`;
  return '金额不公开';
}
