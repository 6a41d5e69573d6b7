/**
 * Exposure reporting in the browser: one tracker and one IntersectionObserver per page view
 * (ExposureProvider); each card registers itself with useExposureRef and is reported once per
 * placement when at least half of it is visible (exposure.ts). Without IntersectionObserver (very old
 * webviews) a card counts as seen when it mounts.
 */
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo } from 'react';
import { reportExposure } from './api/report-exposure';
import { createExposureTracker, EXPOSURE_RATIO, type ExposureSend } from './exposure';

interface PageExposure {
  observe(el: Element, productId: string, placement: number): () => void;
  disconnect(): void;
}

function createPageExposure(send: ExposureSend): PageExposure {
  const tracker = createExposureTracker(send);
  const targets = new Map<Element, { productId: string; placement: number }>();
  const observer =
    typeof IntersectionObserver === 'undefined'
      ? null
      : new IntersectionObserver(
          (entries) => {
            for (const entry of entries) {
              const target = targets.get(entry.target);
              if (!target) continue;
              const ratio = entry.isIntersecting ? entry.intersectionRatio : 0;
              if (tracker.seen(target.productId, target.placement, ratio)) {
                observer?.unobserve(entry.target);
                targets.delete(entry.target);
              }
            }
          },
          { threshold: [0, EXPOSURE_RATIO, 1] },
        );
  return {
    observe(el, productId, placement) {
      if (tracker.reported(productId, placement)) return () => {};
      if (!observer) {
        tracker.seen(productId, placement, 1);
        return () => {};
      }
      targets.set(el, { productId, placement });
      observer.observe(el);
      return () => {
        observer.unobserve(el);
        targets.delete(el);
      };
    },
    disconnect: () => observer?.disconnect(),
  };
}

const ExposureContext = createContext<PageExposure | null>(null);

/** One page view of exposures (wrap a page's product lists). */
export function ExposureProvider({
  children,
  send = reportExposure,
}: {
  children: ReactNode;
  send?: ExposureSend;
}) {
  const page = useMemo(() => createPageExposure(send), [send]);
  useEffect(() => () => page.disconnect(), [page]);
  return <ExposureContext.Provider value={page}>{children}</ExposureContext.Provider>;
}

/** A ref for the element of a product card; nothing happens outside an ExposureProvider. */
export function useExposureRef(productId: string, placement: number) {
  const page = useContext(ExposureContext);
  return useCallback(
    (el: HTMLElement | null) => {
      if (!el || !page) return;
      return page.observe(el, productId, placement);
    },
    [page, productId, placement],
  );
}
