import type { FunnelData } from '@lm/shared/schemas/funnel';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { type FunnelFilters, funnelParams, funnelQueryKey } from './types';

/** GET /api/admin/funnel?from&to&channelCodes&skin */
export function getFunnel(filters: FunnelFilters, signal?: AbortSignal): Promise<FunnelData> {
  return api.get<FunnelData>('/api/admin/funnel', { params: funnelParams(filters), signal });
}

export const funnelQueryOptions = (filters: FunnelFilters) =>
  queryOptions({
    queryKey: [...funnelQueryKey, 'steps', filters],
    queryFn: ({ signal }) => getFunnel(filters, signal),
    placeholderData: keepPreviousData,
  });

export function useFunnel(filters: FunnelFilters) {
  return useQuery(funnelQueryOptions(filters));
}
