import type { DashboardData } from '@lm/shared/schemas/funnel';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/admin/dashboard — today vs yesterday (Shanghai) and the last 14 days. */
export function getDashboard(signal?: AbortSignal): Promise<DashboardData> {
  return api.get<DashboardData>('/api/admin/dashboard', { signal });
}

export const dashboardQueryOptions = () =>
  queryOptions({
    queryKey: ['admin', 'dashboard'],
    queryFn: ({ signal }) => getDashboard(signal),
    refetchInterval: 60_000,
  });

export function useDashboard() {
  return useQuery(dashboardQueryOptions());
}
