import type { BootstrapResult } from '../channel/bootstrap';
import { scheduleFingerprint } from './fingerprint';
import { reportChannelClick, reportStep } from './reporter';

/** Landing pages (spec §2: /download is the same page as /). */
export const LANDING_PATHS: readonly string[] = ['/', '/download'];

export function isLandingPath(pathname: string): boolean {
  return LANDING_PATHS.includes(pathname.replace(/\/+$/, '') || '/');
}

/**
 * Start-of-visit analytics, after the channel bootstrap: the fingerprint (idle, lazy), `init` and
 * `visit_landing` on the landing pages, and the daily channel click when the visit starts on a landing
 * page or arrives through a channel link. Nothing is sent when the page is about to leave.
 */
export function startVisitAnalytics(
  result: BootstrapResult | null,
  pathname = window.location.pathname,
): void {
  if (result && result.outcome !== 'ready') return;
  scheduleFingerprint();
  const landing = isLandingPath(pathname);
  if (landing) {
    void reportStep('init');
    void reportStep('visit_landing');
  }
  if (landing || result?.fromLink) void reportChannelClick();
}
