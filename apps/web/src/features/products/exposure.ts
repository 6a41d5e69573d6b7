/**
 * Exposure reporting rule (spec §3 ad placements; docs/products-api.md): a product shown in a
 * placement is reported once per page view, when at least half of its card is visible. One tracker
 * per page view; pure, unit-tested. The browser wiring (IntersectionObserver) is use-exposure.tsx.
 */

/** A card counts as seen from this visible share. */
export const EXPOSURE_RATIO = 0.5;

export type ExposureSend = (productId: string, placement: number) => void;

export interface ExposureTracker {
  /** Reports the product unless it was already reported in this placement; true when it was sent now. */
  seen(productId: string, placement: number, visibleRatio: number): boolean;
  /** Whether it was already reported (tests, and to stop observing a card). */
  reported(productId: string, placement: number): boolean;
}

export function createExposureTracker(send: ExposureSend): ExposureTracker {
  const done = new Set<string>();
  const key = (productId: string, placement: number) => `${placement}:${productId}`;
  return {
    seen(productId, placement, visibleRatio) {
      if (visibleRatio < EXPOSURE_RATIO) return false;
      const k = key(productId, placement);
      if (done.has(k)) return false;
      done.add(k);
      send(productId, placement);
      return true;
    },
    reported: (productId, placement) => done.has(key(productId, placement)),
  };
}
