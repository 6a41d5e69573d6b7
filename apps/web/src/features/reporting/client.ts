/**
 * Client reports (spec §7 "Reporting and misc"; docs/site.md): POST /api/report/type?type,
 * POST /api/report/click?type, PUT /api/report/h5device?devicePlatForm, POST /api/report/log?content.
 * Silent and fire-and-forget. While the page is being hidden or left, a POST goes out with
 * navigator.sendBeacon (it survives the unload; it sends no headers, so the fingerprint and the
 * channel travel in the body); otherwise through the API client with keepalive (token and
 * platform_param headers included).
 */
import { api } from '@/lib/api-client';
import { getStoredChannelCode } from '@/lib/channel/code';
import { getFingerprint } from '@/lib/device';

export type ReportValue = string | number | boolean;
export type ReportData = Record<string, ReportValue>;

type Sender = 'beacon' | 'fetch';

/** Whether a POST should go as a beacon now: the page is hidden (being left) and beacons exist. */
export function chooseSender(visibility: string, hasBeacon: boolean): Sender {
  return visibility === 'hidden' && hasBeacon ? 'beacon' : 'fetch';
}

function pageVisibility(): string {
  return typeof document === 'undefined' ? 'visible' : document.visibilityState;
}

function beaconBody(data?: ReportData): string {
  const fingerprint = getFingerprint();
  const adChannelCode = getStoredChannelCode() ?? '';
  return JSON.stringify({
    ...(data ? { data } : {}),
    ...(fingerprint ? { fingerprint } : {}),
    ...(adChannelCode ? { adChannelCode } : {}),
  });
}

/** POSTs a report; resolves true when it was handed over (a beacon) or answered 200. Never throws. */
export async function postReport(
  path: string,
  query: Record<string, string>,
  data?: ReportData,
): Promise<boolean> {
  const hasBeacon = typeof navigator !== 'undefined' && typeof navigator.sendBeacon === 'function';
  if (chooseSender(pageVisibility(), hasBeacon) === 'beacon') {
    const url = `${path}?${new URLSearchParams(query).toString()}`;
    try {
      // A string goes as text/plain (no CORS preflight); the server reads it as JSON.
      if (navigator.sendBeacon(url, beaconBody(data))) return true;
    } catch {
      // Fall through to fetch.
    }
  }
  try {
    await api.post(path, data ? { data } : {}, {
      params: query,
      silent: true,
      cancelPrevious: false,
      keepalive: true,
    });
    return true;
  } catch {
    return false;
  }
}

/** POST /api/report/click?type — a tap on a banner, card or button. */
export function reportClick(type: string, data?: ReportData): Promise<boolean> {
  return postReport('/api/report/click', { type }, data);
}

/** POST /api/report/type?type — a typed client event. */
export function reportType(type: string, data?: ReportData): Promise<boolean> {
  return postReport('/api/report/type', { type }, data);
}

/** POST /api/report/log?content — a client log line (the server removes phone-like numbers too). */
export function reportLog(content: string): Promise<boolean> {
  return postReport('/api/report/log', { content: content.slice(0, 2000) });
}
