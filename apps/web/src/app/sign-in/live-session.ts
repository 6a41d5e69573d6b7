/**
 * A login page opened with a live session (issue 16.5): the back arrow of a form, the ad link opened
 * again. The visitor is not asked to log in again: the token is checked (GET /api/getLoginUserInfo)
 * and the visitor goes on at their next step — the page a login would return to (`returnTo`), else
 * the post-login decision — replacing the login page in the history. A token the server refuses is
 * forgotten and the SMS form shown.
 */
import { useEffect, useState } from 'react';
import type { LoginUserFacts, NavigateDecision } from '@/features/flow/decide';
import { api } from '@/lib/api-client';
import { returnToOf } from '@/lib/return-to';
import { isLoggedIn } from '@/lib/session';

interface LoginUserInfo extends LoginUserFacts {
  adChannelCode: string | null;
}

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

/**
 * The next step of a logged-in person (issue 16.5): their login facts (GET /api/getLoginUserInfo,
 * which also checks the token) through the post-login decision. Rejects when there is no live
 * session (the token refused: forgotten, and this page kept) or the server cannot be reached.
 */
export async function nextStepOfLiveSession(): Promise<NavigateDecision> {
  const user = await api.get<LoginUserInfo>('/api/getLoginUserInfo', { silent: true, stayOnLogout: true });
  const { decideAfterLogin } = await import('./post-login');
  return decideAfterLogin({
    uid: user.uid,
    userInfoStatus: user.userInfoStatus,
    coverStatus: user.coverStatus,
  });
}

/**
 * True while a live session is being checked and forwarded (the page shows a placeholder meanwhile);
 * false once the page is to show its login form.
 */
export function useLiveSessionForward(search: string): boolean {
  const [checking, setChecking] = useState(isLoggedIn);
  // biome-ignore lint/correctness/useExhaustiveDependencies: checked once, when the page opens
  useEffect(() => {
    if (!checking) return;
    let alive = true;
    let cancel: (() => void) | undefined;
    void (async () => {
      try {
        const returnTo = returnToOf(search);
        if (returnTo) {
          // The token is checked first: a refused one shows the login form instead.
          await api.get<LoginUserInfo>('/api/getLoginUserInfo', { silent: true, stayOnLogout: true });
        }
        const decision = returnTo ? null : await nextStepOfLiveSession();
        const { followDecision } = await import('./post-login');
        if (alive) cancel = followDecision(liveSessionTarget(returnTo, decision));
      } catch {
        // No live session after all (refused or unreachable): the login form.
        if (alive) setChecking(false);
      }
    })();
    return () => {
      alive = false;
      cancel?.();
    };
  }, []);
  return checking;
}
