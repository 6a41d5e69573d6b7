/** Landing copy shared by every layout. Figures are the marketplace's advertised range, not an offer. */
export const MAX_AMOUNT_WAN = 20;
export const MAX_AMOUNT_YUAN = MAX_AMOUNT_WAN * 10_000;
export const APR_MIN = 7.2;
export const APR_MAX = 24;
export const APR_LINE = `年化利率${APR_MIN}%-${APR_MAX}%，以实际审批为准`;

/**
 * Monthly payment of an equal-instalment loan (等额本息), rounded to the yuan.
 * `aprPercent` is the annual rate in percent.
 */
export function monthlyPayment(principal: number, months: number, aprPercent: number): number {
  const r = aprPercent / 100 / 12;
  if (r === 0) return Math.round(principal / months);
  return Math.round((principal * r) / (1 - (1 + r) ** -months));
}
