/**
 * What a lender pays for a lead (issue 48.1, ADR 073), zod-free: the console reads the models, their words
 * and the limits from here; the body schema is `schemas/product-prices.ts`, the rules
 * `apps/server/src/modules/pricing/rules.ts`.
 */

/** cpl: fen per delivered lead; cpa: fen per approved lead; cps: basis points of the funded amount. */
export const PRICE_MODELS = ['cpl', 'cpa', 'cps'] as const;
export type PriceModel = (typeof PRICE_MODELS)[number];

export const PRICE_MODEL_LABELS: Record<PriceModel, string> = {
  cpl: '按线索 CPL',
  cpa: '按授信 CPA',
  cps: '按放款 CPS',
};

/** What the price is paid on, in words. */
export const PRICE_MODEL_BASIS: Record<PriceModel, string> = {
  cpl: '每条成功推送的线索',
  cpa: '每条机构授信的线索',
  cps: '放款金额的比例',
};

/** The highest CPL / CPA price: 1 000 000 元 a lead, in fen. */
export const PRICE_MAX_FEN = 100_000_000;
/** The CPS share: 0.01 %–100 %, in basis points. */
export const PRICE_MIN_BPS = 1;
export const PRICE_MAX_BPS = 10_000;

/** Whether a model is priced in fen (cpl, cpa) or in basis points (cps). */
export function priceInFen(model: PriceModel): boolean {
  return model !== 'cps';
}
