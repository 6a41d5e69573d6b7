import { AD_PLACEMENTS } from '@lm/shared/placements';

/** A placement from a query value (e.g. /you-xin-detail?entranceType=6); 0 when absent or unknown. */
export function placementOf(value: string | null | undefined): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 0 && n <= 7 ? n : AD_PLACEMENTS.UNKNOWN;
}
