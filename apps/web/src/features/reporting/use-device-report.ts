import { useEffect } from 'react';

/**
 * Reports the device once per session, after the page has painted and without adding to the page's
 * first load (the report code is its own chunk).
 */
export function useDeviceReport(enabled = true): void {
  useEffect(() => {
    if (!enabled) return;
    const timer = setTimeout(() => {
      void import('./device').then((m) => m.reportDeviceOnce()).catch(() => undefined);
    }, 1500);
    return () => clearTimeout(timer);
  }, [enabled]);
}
