import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { isLoggedIn } from '@/lib/session';

/** Shape: applyStatusData of @lm/shared/schemas/application (the fields the apply pages read). */
export interface ApplyDetail {
  submitStatus: 0 | 1 | 10;
  applyLimit: number | null;
  workCity: string | null;
}

/** GET /api/user/info/detail — apply status with the amount chosen (silent: a page state). */
export function getApplyDetail(signal?: AbortSignal): Promise<ApplyDetail> {
  return api.get<ApplyDetail>('/api/user/info/detail', { silent: true, ...(signal ? { signal } : {}) });
}

export const applyDetailQueryOptions = () =>
  queryOptions({
    queryKey: ['apply', 'draft', 'detail'],
    queryFn: ({ signal }) => getApplyDetail(signal),
    staleTime: 0,
  });

export function useApplyDetail() {
  return useQuery({ ...applyDetailQueryOptions(), enabled: isLoggedIn() });
}
