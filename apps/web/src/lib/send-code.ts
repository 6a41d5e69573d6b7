/**
 * What a tap on 获取验证码 does (issue 16.7), for every code sender (H5 login, account cancellation,
 * staff login). Pure: the caller passes what it knows.
 *
 * - a countdown running or a send in flight: nothing (the button is disabled anyway);
 * - the browser says it is offline (`navigator.onLine === false`): send nothing and say
 *   "网络连接错误" at once; the button stays tappable, so the next tap tries again;
 * - otherwise: send.
 *
 * After a failed send the button is tappable again at once — a network failure (the API client says
 * "网络连接错误" as soon as fetch fails), a timeout or a refusal — except after a rate limit (429),
 * whose `retryAfter` the countdown follows.
 */
import { NETWORK_MSG } from '@lm/shared/client/api-client';
import { ErrorCode } from '@lm/shared/errors';

/** Shown when the network is gone: the API client's own message when a request cannot reach the server. */
export const NETWORK_ERROR_MSG = NETWORK_MSG;

export interface SendCodeState {
  /** The resend countdown is running. */
  counting: boolean;
  /** A send is in flight. */
  sending: boolean;
  /** `navigator.onLine` (only `false` is trusted: `true` does not promise a working network). */
  online: boolean;
}

export type SendCodeStep = { kind: 'wait' } | { kind: 'offline'; message: string } | { kind: 'send' };

export function sendCodeStep(state: SendCodeState): SendCodeStep {
  if (state.counting || state.sending) return { kind: 'wait' };
  if (!state.online) return { kind: 'offline', message: NETWORK_ERROR_MSG };
  return { kind: 'send' };
}

/** The browser's idea of the network: offline only when it says so. */
export function browserOnline(nav: { onLine?: boolean } | undefined = globalThis.navigator): boolean {
  return nav?.onLine !== false;
}

/**
 * Seconds to wait before the next tap after a failed send: the server's `retryAfter` after a rate
 * limit, else 0 (tappable at once).
 */
export function waitAfterSendFailure(error: unknown): number {
  if (!error || typeof error !== 'object') return 0;
  const { code, data } = error as { code?: unknown; data?: unknown };
  if (code !== ErrorCode.RATE_LIMITED || !data || typeof data !== 'object') return 0;
  const retryAfter = (data as { retryAfter?: unknown }).retryAfter;
  return typeof retryAfter === 'number' && Number.isFinite(retryAfter) && retryAfter > 0
    ? Math.ceil(retryAfter)
    : 0;
}
