import type { AppIndexIcon } from '@lm/shared/schemas/site';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/pageConfig/getAppIndexIconList — the home shortcuts. Silent (the page has its own). */
export function getAppIndexIcons(signal?: AbortSignal): Promise<AppIndexIcon[]> {
  return api.get<AppIndexIcon[]>('/api/pageConfig/getAppIndexIconList', {
    silent: true,
    skipAuth: true,
    ...(signal ? { signal } : {}),
  });
}

export const appIndexIconsQueryOptions = () =>
  queryOptions({
    queryKey: ['page-config', 'appIndexIconList'],
    queryFn: ({ signal }) => getAppIndexIcons(signal),
    staleTime: 10 * 60_000,
  });

export function useAppIndexIcons() {
  return useQuery(appIndexIconsQueryOptions());
}
