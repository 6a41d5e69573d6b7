/**
 * The Web Vitals collector: loaded lazily after the first paint (start.ts), so web-vitals never
 * weighs on the first load. LCP, FCP and TTFB belong to the page the visit started on; INP and CLS
 * to the page shown when they are reported (the page being hidden). Items are queued and sent in
 * batches of ≤ 50 when the page is hidden or left.
 */
import { type Metric, onCLS, onFCP, onINP, onLCP, onTTFB } from 'web-vitals';
import { currentRoute, MAX_BATCH, postItems, type RumMetricName, tagged, type VitalItem } from './config';

export interface Batcher {
  /** Queues an item; a newer value of the same measurement (same id) replaces an unsent one. */
  add(id: string, item: VitalItem): void;
  flush(): void;
  size(): number;
}

/** Batches of at most `size` items. */
export function toBatches<T>(items: T[], size = MAX_BATCH): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Queues items and hands them to `send` in batches on flush, or as soon as a full batch is queued. */
export function createBatcher(send: (batch: VitalItem[]) => void, max = MAX_BATCH): Batcher {
  let queue = new Map<string, VitalItem>();
  const flush = () => {
    const items = [...queue.values()];
    queue = new Map();
    for (const batch of toBatches(items, max)) send(batch);
  };
  return {
    add(id, item) {
      queue.delete(id);
      queue.set(id, item);
      if (queue.size >= max) flush();
    },
    flush,
    size: () => queue.size,
  };
}

/** The item of a web-vitals measurement on `route`. */
export function toItem(
  m: Pick<Metric, 'name' | 'value' | 'rating' | 'navigationType'>,
  route: string,
): VitalItem {
  const value = m.name === 'CLS' ? Math.round(m.value * 10_000) / 10_000 : Math.round(m.value * 10) / 10;
  return tagged(m.name as RumMetricName, value, route, {
    rating: m.rating,
    navigationType: m.navigationType,
  });
}

let started = false;

export function startMonitor(): void {
  if (started) return;
  started = true;
  const landingRoute = currentRoute();
  const batcher = createBatcher((batch) => postItems(batch));
  const onLoadMetric = (m: Metric) => batcher.add(m.id, toItem(m, landingRoute));
  const onPageMetric = (m: Metric) => batcher.add(m.id, toItem(m, currentRoute()));
  onTTFB(onLoadMetric);
  onFCP(onLoadMetric);
  onLCP(onLoadMetric);
  onCLS(onPageMetric);
  onINP(onPageMetric);
  // Bubble phase on window: after web-vitals' own (capturing) hidden handlers have reported.
  addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') batcher.flush();
  });
  addEventListener('pagehide', () => batcher.flush());
}
