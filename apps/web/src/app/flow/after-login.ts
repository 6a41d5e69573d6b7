/**
 * What follows a login on the pages that show the login form (/login, the landing, /register): the
 * page that asked for the login (`returnTo`, issue 16.4), else the post-login decision (spec §4).
 * The decision's code is loaded on demand (it is not needed to show the form), prefetched once a code
 * was sent.
 */
import type { AfterLogin } from '@/features/auth/components/login-form';
import { returnToOf } from '@/lib/return-to';

const loadPostLogin = () => import('./post-login');

export const afterLogin: AfterLogin = {
  preload: () => void loadPostLogin().catch(() => undefined),
  async decide(loginUser, search) {
    const { decideAfterLogin, followDecision, liveSessionTarget } = await loadPostLogin();
    // Back to the page that asked for the login, else the decision; the login page is replaced, so
    // the back arrow of the next page does not return to it.
    const returnTo = returnToOf(search);
    const decided = returnTo ? null : await decideAfterLogin(loginUser);
    // After the 登录成功 toast: the decision's own delay, else the helper's.
    const target = { ...liveSessionTarget(returnTo, decided), delayMs: decided?.delayMs };
    return () => followDecision(target);
  },
};
