import { useEffect } from 'react';

/** After the page's own files, its first paint and the real-user monitoring's start. */
const PREFETCH_DELAY_MS = 2500;

/**
 * Runs `load` (a chunk's import) a while after the page has loaded, when the browser is idle, so that
 * a part kept out of the first load (a picker) opens at once on the first tap.
 */
export function usePrefetchWhenIdle(load: () => Promise<unknown>) {
  useEffect(() => {
    let idle = 0;
    const run = () => void load().catch(() => undefined);
    const timer = setTimeout(() => {
      if (typeof window.requestIdleCallback === 'function')
        idle = window.requestIdleCallback(run, { timeout: 5000 });
      else run();
    }, PREFETCH_DELAY_MS);
    return () => {
      clearTimeout(timer);
      if (idle) window.cancelIdleCallback(idle);
    };
  }, [load]);
}
