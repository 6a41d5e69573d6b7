import type { RumMetric, VitalsGroupBy, WebVitalsData } from '@lm/shared/schemas/rum';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface WebVitalsFilters {
  from: string;
  to: string;
  groupBy: VitalsGroupBy;
  metric?: RumMetric | undefined;
  channelCode?: string | undefined;
  skin?: number | undefined;
  route?: string | undefined;
}

/** GET /api/admin/web-vitals — count, p50, p75, p95 per group and metric with the p75's rating. */
export function getWebVitals(filters: WebVitalsFilters, signal?: AbortSignal): Promise<WebVitalsData> {
  return api.get<WebVitalsData>('/api/admin/web-vitals', { params: { ...filters }, signal });
}

export const webVitalsQueryOptions = (filters: WebVitalsFilters) =>
  queryOptions({
    queryKey: ['admin', 'web-vitals', filters],
    queryFn: ({ signal }) => getWebVitals(filters, signal),
    placeholderData: keepPreviousData,
  });

export function useWebVitals(filters: WebVitalsFilters) {
  return useQuery(webVitalsQueryOptions(filters));
}
