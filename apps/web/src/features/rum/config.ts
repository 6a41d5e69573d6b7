/**
 * Real-user monitoring of the H5 (issue 8, spec §9 browser-performance monitor; docs/rum.md).
 * Small on purpose: this file and chunk-guard.ts are in the entry (a failed chunk must be reported
 * without loading another one); web-vitals, batching and the collector (monitor.ts) load only after
 * the first paint.
 */

/** Spec §9: the monitor is initialised with the fixed environment prod and version 1.0.3. */
export const RUM_ENV = 'prod';
export const RUM_VERSION = '1.0.3';
/** Spec §9: a script chunk that has not loaded after 120 s counts as failed (lib/chunk-load.ts). */
export { CHUNK_LOAD_TIMEOUT_MS } from '@/lib/chunk-load';
export const VITALS_URL = '/api/report/vitals';
/** Most items in one beacon (the server refuses more). */
export const MAX_BATCH = 50;

export type RumMetricName = 'LCP' | 'INP' | 'CLS' | 'TTFB' | 'FCP' | 'CHUNK_ERROR';

export interface VitalItem {
  metric: RumMetricName;
  value: number;
  rating?: 'good' | 'needs-improvement' | 'poor';
  /** The route pattern (/audit-new/:id), never the URL: queries may hold personal data. */
  route: string;
  channel: string | null;
  skin: number | null;
  navigationType: string | null;
  connection: string | null;
}

/** What the monitor reads from the app (wired in main.tsx and app/router.tsx; features stay apart). */
export interface RumContext {
  routePattern(pathname: string): string;
  channel(): string | null;
  skin(): number | null;
  /** The device fingerprint (VISITORID) or ''; a beacon carries no headers, so it goes in the body. */
  fingerprint(): string;
  /** False in the console's live preview: nothing is reported. */
  enabled(): boolean;
}

const context: RumContext = {
  routePattern: () => '/',
  channel: () => null,
  skin: () => null,
  fingerprint: () => '',
  enabled: () => true,
};

export function configureRum(parts: Partial<RumContext>): void {
  Object.assign(context, parts);
}

/** The pattern of the current page. */
export function currentRoute(): string {
  return context.routePattern(location.pathname);
}

/** An item of the current page with its channel, skin and network, read now. */
export function tagged(
  metric: RumMetricName,
  value: number,
  route = currentRoute(),
  extra?: Pick<VitalItem, 'rating' | 'navigationType'>,
): VitalItem {
  const channel = context.channel();
  return {
    metric,
    value,
    route,
    channel: channel && /^[\w.-]{1,64}$/.test(channel) ? channel : null,
    skin: context.skin(),
    navigationType: null,
    connection: (navigator as { connection?: { effectiveType?: string } }).connection?.effectiveType ?? null,
    ...extra,
  };
}

export type Beacon = (url: string, body: string) => boolean;

/**
 * Posts one batch (≤ 50 items): a beacon with a string body (text/plain: no CORS preflight, and it
 * survives the page being left), else fetch with keepalive. Never throws, never blocks the page.
 */
export function postItems(items: VitalItem[], beacon?: Beacon, post: typeof fetch = fetch): void {
  if (!items.length || !context.enabled()) return;
  const fingerprint = context.fingerprint();
  const body = JSON.stringify({
    env: RUM_ENV,
    version: RUM_VERSION,
    ...(fingerprint && { fingerprint }),
    items,
  });
  try {
    if ((beacon ?? navigator.sendBeacon.bind(navigator))(VITALS_URL, body)) return;
  } catch {
    // No beacons here: fetch below.
  }
  post(VITALS_URL, { method: 'POST', body, keepalive: true }).catch(() => {});
}
