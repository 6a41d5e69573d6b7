import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface Health {
  status: string;
  db: string | boolean;
  redis: string | boolean;
  uptimeSeconds: number;
}

/** GET /api/user/health — public, so it is called without the staff token. */
export function getHealth(signal?: AbortSignal): Promise<Health> {
  return api.get<Health>('/api/user/health', { signal, skipAuth: true, silent: true });
}

export const healthQueryOptions = () =>
  queryOptions({
    queryKey: ['health'],
    queryFn: ({ signal }) => getHealth(signal),
    refetchInterval: 30_000,
  });

export function useHealth() {
  return useQuery(healthQueryOptions());
}
