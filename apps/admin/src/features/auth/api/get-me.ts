import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Staff } from './types';

export const meQueryKey = ['admin-me'] as const;

/** GET /api/admin/me */
export function getMe(signal?: AbortSignal): Promise<Staff> {
  return api.get<Staff>('/api/admin/me', { signal });
}

export const meQueryOptions = () =>
  queryOptions({
    queryKey: meQueryKey,
    queryFn: ({ signal }) => getMe(signal),
  });

export function useMe() {
  return useQuery(meQueryOptions());
}
