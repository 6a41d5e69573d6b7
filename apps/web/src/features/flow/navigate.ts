/**
 * The navigation helper (spec §2, §9): after a delay (500 ms by default) it clears any toast, then
 * navigates through lib/navigation with the query built by buildNavigationUrl.
 */

import { NAVIGATION_DELAY_MS } from '@/config/constants';
import { navigateTo } from '@/lib/navigation';
import { toast } from '@/lib/toast';
import type { NavigateDecision, Query } from './decide';
import { buildNavigationUrl } from './url';

export interface NavigateTarget {
  path: string;
  query?: Query;
  replace?: boolean;
  delayMs?: number;
}

/** Navigates after the delay; returns a function that cancels it (e.g. on unmount). */
export function navigateAfterDelay(target: NavigateTarget): () => void {
  const url = buildNavigationUrl(target.path, target.query);
  const timer = setTimeout(() => {
    toast.clear();
    navigateTo(url, { replace: target.replace ?? false });
  }, target.delayMs ?? NAVIGATION_DELAY_MS);
  return () => clearTimeout(timer);
}

/** Shows the decision's toast (if any), then navigates after its delay. */
export function followDecision(decision: NavigateDecision): () => void {
  if (decision.toast) toast.show({ content: decision.toast.content, duration: decision.toast.duration });
  return navigateAfterDelay(decision);
}
