/**
 * Spec §3 ad placements (entranceType), as AD_PLACEMENTS of @lm/shared/schemas/product — repeated
 * here because that module builds zod schemas, which the browser bundle does not carry
 * (placements.test.ts keeps the two equal).
 */
export const PLACEMENTS = {
  UNKNOWN: 0,
  HOME_INSERTION: 1,
  HOME_POPUP: 2,
  TAIL: 3,
  TOP_RECOMMEND: 4,
  HOME_LIST: 5,
  PRODUCT_LIST: 6,
  RANDOM_RECOMMEND: 7,
} as const;

/** A placement from a query value (e.g. /you-xin-detail?entranceType=6); 0 when absent or unknown. */
export function placementOf(value: string | null | undefined): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 0 && n <= 7 ? n : PLACEMENTS.UNKNOWN;
}
