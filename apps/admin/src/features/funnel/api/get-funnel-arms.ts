import type { FunnelArmsData } from '@lm/shared/schemas/funnel';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { funnelQueryKey } from './types';

export interface ArmsFilters {
  channelCode: string;
  from: string;
  to: string;
}

/** GET /api/admin/funnel/arms?channelCode&from&to — skin arms against the control arm. */
export function getFunnelArms(filters: ArmsFilters, signal?: AbortSignal): Promise<FunnelArmsData> {
  return api.get<FunnelArmsData>('/api/admin/funnel/arms', { params: { ...filters }, signal });
}

export const funnelArmsQueryOptions = (filters: ArmsFilters | null) =>
  queryOptions({
    queryKey: [...funnelQueryKey, 'arms', filters],
    queryFn: ({ signal }) => getFunnelArms(filters!, signal),
    enabled: filters !== null,
    placeholderData: keepPreviousData,
  });

export function useFunnelArms(filters: ArmsFilters | null) {
  return useQuery(funnelArmsQueryOptions(filters));
}
