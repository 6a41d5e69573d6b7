/**
 * The web app's API client (spec §7, §8): the shared core (@lm/shared/client/api-client, ADR 028)
 * with the H5's headers, toasts and log-out.
 *
 * - Headers (lib/headers.ts): `accessToken`; `platform_param` {channel 0, currentChannelCode (the
 *   channel store's code), deviceBrand, fingerprint (VISITORID once computed)}, with appType 3 and
 *   channel 1 inside our app's webview; `track_report` (the ad-platform callback parameters captured
 *   for the current channel).
 * - A new request to the same method + path aborts the previous one unless `cancelPrevious: false`;
 *   aborted requests reject with a silent `CANCELED` ApiError.
 * - 401/1005/1006 → log out and go to /getQuota; anything else → toast the message for 3 s.
 */
import { createApiClient } from '@lm/shared/client/api-client';
import { getStoredChannelCode } from './channel/code';
import { useChannelStore } from './channel/store';
import { getDeviceBrand, getFingerprint, isAppWebview } from './device';
import { buildHeaders } from './headers';
import { navigateTo } from './navigation';
import { loginPathFor } from './return-to';
import { clearSession, getToken } from './session';
import { toast } from './toast';
import { getTrackReport } from './track-report';

export {
  ApiError,
  type ApiErrorName,
  isCanceledError,
  REQUEST_TIMEOUT_MS,
  type RequestOptions,
} from '@lm/shared/client/api-client';

export const ERROR_TOAST_MS = 3_000;

function currentChannelCode(): string {
  return useChannelStore.getState().adChannelCode || getStoredChannelCode() || '';
}

const showError = (msg: string) => toast.show({ content: msg, duration: ERROR_TOAST_MS });

export const api = createApiClient({
  cancelPrevious: true,
  headers: ({ skipAuth }) => {
    const channelCode = currentChannelCode();
    return buildHeaders({
      token: skipAuth ? null : getToken(),
      channelCode,
      deviceBrand: getDeviceBrand(),
      fingerprint: getFingerprint(),
      inAppWebview: isAppWebview(),
      trackReport: getTrackReport(channelCode),
    });
  },
  showError,
  /**
   * Token expired or used elsewhere: forget it and send the person to the login-as-form page (spec §4),
   * which comes back to this page after the login (`returnTo`, issue 16.4; ignored for the login pages).
   */
  logout: (msg, { silent, stay }) => {
    if (!silent) showError(msg);
    clearSession();
    if (stay) return;
    const here = `${window.location.pathname}${window.location.search}`;
    const target = loginPathFor(currentChannelCode(), here);
    if (here !== target) navigateTo(target, { replace: true });
  },
});
