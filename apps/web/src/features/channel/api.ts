import type { H5Config } from '@lm/shared/channel';
import { api } from '@/lib/api-client';

export interface RouteCodeExchange {
  adChannelCode: string;
  planTargetUrl: string | null;
}

/** GET /api/adChannel/exchange/adChannelCode?adRouteCode= */
export function exchangeRouteCode(adRouteCode: string): Promise<RouteCodeExchange> {
  return api.get<RouteCodeExchange>('/api/adChannel/exchange/adChannelCode', {
    params: { adRouteCode },
    silent: true,
    skipAuth: true,
  });
}

/**
 * GET /api/adChannel/h5Config?adChannelCode= (default configuration without a code). The answer of an
 * A/B channel carries the skin of this visitor's arm (chosen by the platform_param fingerprint). With
 * the console's `previewToken`, the unsaved draft it carries.
 */
export function fetchH5Config(adChannelCode: string, previewToken?: string): Promise<H5Config> {
  return api.get<H5Config>('/api/adChannel/h5Config', {
    params: previewToken ? { previewToken } : { adChannelCode },
    silent: true,
    skipAuth: true,
  });
}

/** Channel detail of spec §3. */
export interface ChannelDetail {
  adChannelCode: string;
  channelStatus: number;
  linkType: number;
  excludeCityCodes: string[];
  planTargetUrl: string | null;
}

/** GET /api/getAdChannel?adChannelCode= */
export function fetchChannelDetail(adChannelCode: string): Promise<ChannelDetail> {
  return api.get<ChannelDetail>('/api/getAdChannel', { params: { adChannelCode }, silent: true });
}
