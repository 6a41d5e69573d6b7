/**
 * The post-login decision wired to the app: channel from the channel store, device from the user
 * agent, calls from post-login-deps.ts. Loaded lazily after a login (load-post-login.ts) and for a
 * live session (live-session.ts): it is not needed to show the login form.
 */
import type { AfterLogin } from '@/features/auth/components/login-form';
import type { LoginUserFacts, NavigateDecision, PostLoginInput } from '@/features/flow/decide';
import { followDecision } from '@/features/flow/navigate';
import { runPostLogin } from '@/features/flow/run-post-login';
import { whenChannelReady } from '@/lib/channel/bootstrap';
import { useChannelStore } from '@/lib/channel/store';
import { isHuaweiPhone } from '@/lib/device';
import { returnToOf } from '@/lib/return-to';
import { liveSessionTarget } from './live-session';
import { postLoginDeps } from './post-login-deps';

export { followDecision, navigateAfterDelay } from '@/features/flow/navigate';
export { liveSessionTarget } from './live-session';

/** A user without login facts, for the credit ordering (it does not read them). */
const NO_LOGIN_USER: LoginUserFacts = { uid: 0, userInfoStatus: -1, coverStatus: 0 };

async function channelFacts(): Promise<PostLoginInput['channel']> {
  await whenChannelReady();
  const { adChannelCode, config } = useChannelStore.getState();
  return { ...config, adChannelCode: adChannelCode || config.adChannelCode };
}

/** Where to go after a login (spec §4 main ordering). */
export async function decideAfterLogin(loginUser: LoginUserFacts): Promise<NavigateDecision> {
  return runPostLogin(
    { ordering: 'main', channel: await channelFacts(), loginUser, isHuaweiPhone: isHuaweiPhone() },
    postLoginDeps,
  );
}

/** Where the credit flow goes next (spec §4 alternative ordering), e.g. after face verification. */
export async function decideCreditFlow(): Promise<NavigateDecision> {
  return runPostLogin(
    {
      ordering: 'credit',
      channel: await channelFacts(),
      loginUser: NO_LOGIN_USER,
      isHuaweiPhone: isHuaweiPhone(),
    },
    postLoginDeps,
  );
}

/**
 * After a login with the SMS form: back to the page that asked for the login (issue 16.4), else the
 * decision; the login page is replaced, so the back arrow of the next page does not return to it.
 */
export const afterLogin: AfterLogin = async (loginUser, search) => {
  const returnTo = returnToOf(search);
  const decided = returnTo ? null : await decideAfterLogin(loginUser);
  // After the 登录成功 toast: the decision's own delay, else the helper's.
  const target = { ...liveSessionTarget(returnTo, decided), delayMs: decided?.delayMs };
  return () => followDecision(target);
};
