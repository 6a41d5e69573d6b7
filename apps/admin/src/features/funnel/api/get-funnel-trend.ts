import type { FunnelTrendData } from '@lm/shared/schemas/funnel';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { type FunnelFilters, funnelParams, funnelQueryKey } from './types';

/** GET /api/admin/funnel/trend?from&to&channelCodes&skin — per day and step. */
export function getFunnelTrend(filters: FunnelFilters, signal?: AbortSignal): Promise<FunnelTrendData> {
  return api.get<FunnelTrendData>('/api/admin/funnel/trend', { params: funnelParams(filters), signal });
}

export const funnelTrendQueryOptions = (filters: FunnelFilters) =>
  queryOptions({
    queryKey: [...funnelQueryKey, 'trend', filters],
    queryFn: ({ signal }) => getFunnelTrend(filters, signal),
    placeholderData: keepPreviousData,
  });

export function useFunnelTrend(filters: FunnelFilters) {
  return useQuery(funnelTrendQueryOptions(filters));
}
