import type { RouteCodeMissList } from '@lm/shared/schemas/admin-channels';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { channelsQueryKey } from './get-channels';

export interface RouteCodeMissFilters {
  page: number;
  pageSize: number;
}

/** GET /api/admin/route-code-misses?page&pageSize — dead route codes ad links still carry, the latest first. */
export function getRouteCodeMisses(
  filters: RouteCodeMissFilters,
  signal?: AbortSignal,
): Promise<RouteCodeMissList> {
  return api.get<RouteCodeMissList>('/api/admin/route-code-misses', { params: { ...filters }, signal });
}

export function useRouteCodeMisses(filters: RouteCodeMissFilters) {
  return useQuery(
    queryOptions({
      queryKey: [...channelsQueryKey, 'route-code-misses', filters],
      queryFn: ({ signal }) => getRouteCodeMisses(filters, signal),
      placeholderData: keepPreviousData,
    }),
  );
}
