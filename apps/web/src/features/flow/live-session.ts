/**
 * Where a logged-in visitor on a login page goes (issue 16.5): the page a login would return to
 * (`returnTo`), else the post-login decision's target. The app's live-session check
 * (app/flow/live-session.ts) and its login (app/flow/after-login.ts) use it.
 */
import type { NavigateDecision } from './decide';

/**
 * Where a live session goes from a login page: the page to return to, else the decision's target,
 * always replacing the login page (so that going back does not return to it).
 */
export function liveSessionTarget(
  returnTo: string | null,
  decision: NavigateDecision | null,
): NavigateDecision {
  if (returnTo)
    return { kind: 'navigate', step: 'live session: return to', path: returnTo, replace: true, delayMs: 0 };
  if (!decision) throw new Error('a decision is needed without a page to return to');
  return { ...decision, replace: true, delayMs: decision.toast ? decision.delayMs : 0 };
}
