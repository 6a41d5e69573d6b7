/** Most time after the page's load event before the collector loads without any interaction. */
export const MONITOR_DELAY_MS = 3000;

/**
 * Loads the Web Vitals collector (monitor.ts with web-vitals) after the first load: at the first
 * tap, key or scroll, or 3 s after the load event — never as part of the first-load JS. The
 * measurements are buffered by the browser, so nothing from before is lost.
 */
export function startRumAfterPaint(): void {
  const triggers = ['pointerdown', 'keydown', 'scroll'];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const load = () => {
    clearTimeout(timer);
    for (const t of triggers) removeEventListener(t, load, true);
    import('./monitor').then(
      (m) => m.startMonitor(),
      () => {},
    );
  };
  for (const t of triggers) addEventListener(t, load, { capture: true, once: true, passive: true });
  const later = () => {
    timer = setTimeout(load, MONITOR_DELAY_MS);
  };
  if (document.readyState === 'complete') later();
  else addEventListener('load', later, { once: true });
}
