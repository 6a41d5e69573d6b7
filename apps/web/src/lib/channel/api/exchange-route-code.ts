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
