import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { isLoggedIn } from '@/lib/session';

/** Shape: statusResultData of @lm/shared/schemas/application. */
export interface StatusResult {
  /** 0 unsubmitted, 1 submitted-unauthorized, 10 authorized (spec §3). */
  submitStatus: 0 | 1 | 10;
  userInfoStatus: number;
  coverStatus: number;
}

/** GET /api/user/info/status/result */
export function getStatusResult(signal?: AbortSignal): Promise<StatusResult> {
  return api.get<StatusResult>('/api/user/info/status/result', signal ? { signal } : undefined);
}

export const statusResultQueryOptions = () =>
  queryOptions({
    queryKey: ['apply', 'status-result'],
    queryFn: ({ signal }) => getStatusResult(signal),
    staleTime: 0,
  });

export function useStatusResult() {
  return useQuery({ ...statusResultQueryOptions(), enabled: isLoggedIn() });
}
