/**
 * The headers every API call carries (spec §7); pure so that it is testable without a browser.
 *
 * - `accessToken` when logged in (and the call does not skip auth).
 * - `platform_param` {channel 0, currentChannelCode, deviceBrand, fingerprint}.
 * - Inside our native app's webview (user agent token `LoanMarketApp/`, see lib/device) the spec's
 *   `PLATFORM_PARAM` {appType 3, channel 1} is merged into that same header: header names are
 *   case-insensitive, so `platform_param` and `PLATFORM_PARAM` sent side by side would reach the server
 *   as one comma-joined value that no longer parses as JSON.
 * - `track_report` {platform, …callback params} captured for the current channel, when there are any.
 */
import { asciiJson } from './track-report';

export interface HeaderContext {
  token: string | null;
  channelCode: string;
  deviceBrand: string;
  fingerprint: string;
  inAppWebview: boolean;
  trackReport: Record<string, string> | null;
}

export function buildHeaders(ctx: HeaderContext): Record<string, string> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    platform_param: asciiJson({
      ...(ctx.inAppWebview ? { appType: 3, channel: 1 } : { channel: 0 }),
      currentChannelCode: ctx.channelCode,
      deviceBrand: ctx.deviceBrand,
      fingerprint: ctx.fingerprint,
    }),
  };
  if (ctx.trackReport) headers.track_report = asciiJson(ctx.trackReport);
  if (ctx.token) headers.accessToken = ctx.token;
  return headers;
}
