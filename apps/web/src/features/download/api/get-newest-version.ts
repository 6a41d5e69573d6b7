import type { AppPlatform, NewestVersionData } from '@lm/shared/schemas/site';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/appVersion/newestVersion — newest version of the platform, or null. Silent (spec §7). */
export function getNewestVersion(platform: AppPlatform, signal?: AbortSignal): Promise<NewestVersionData> {
  return api.get<NewestVersionData>('/api/appVersion/newestVersion', {
    params: { platform },
    silent: true,
    skipAuth: true,
    ...(signal ? { signal } : {}),
  });
}

export const newestVersionQueryOptions = (platform: AppPlatform) =>
  queryOptions({
    queryKey: ['app-version', 'newest', platform],
    queryFn: ({ signal }) => getNewestVersion(platform, signal),
    staleTime: 5 * 60_000,
  });

export function useNewestVersion(platform: AppPlatform) {
  return useQuery(newestVersionQueryOptions(platform));
}
