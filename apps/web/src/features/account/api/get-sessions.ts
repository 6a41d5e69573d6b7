import type { SessionList } from '@lm/shared/schemas/privacy';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/user/sessions — the newest 20 logins of the account, this one marked `current`. */
export function getSessions(signal?: AbortSignal): Promise<SessionList> {
  return api.get<SessionList>('/api/user/sessions', { signal });
}

export const sessionsQueryOptions = () =>
  queryOptions({
    queryKey: ['account', 'sessions'],
    queryFn: ({ signal }) => getSessions(signal),
  });

export function useSessions() {
  return useQuery(sessionsQueryOptions());
}
