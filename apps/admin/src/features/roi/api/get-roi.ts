import type { RoiData, RoiGroupBy } from '@lm/shared/schemas/roi';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** The ROI page's query: Shanghai days from..to and the grouping. */
export interface RoiFilters {
  from: string;
  to: string;
  groupBy: RoiGroupBy;
}

/** GET /api/admin/roi?from&to&groupBy — rows per channel, day or skin with totals (a viewer: no amounts). */
export function getRoi(filters: RoiFilters, signal?: AbortSignal): Promise<RoiData> {
  return api.get<RoiData>('/api/admin/roi', { params: { ...filters }, signal });
}

export const roiQueryKey = ['admin', 'roi'] as const;

export const roiQueryOptions = (filters: RoiFilters) =>
  queryOptions({
    queryKey: [...roiQueryKey, filters],
    queryFn: ({ signal }) => getRoi(filters, signal),
    placeholderData: keepPreviousData,
  });

export function useRoi(filters: RoiFilters) {
  return useQuery(roiQueryOptions(filters));
}
