import type { CreditInfoData } from '@lm/shared/schemas/credit-info';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const CREDIT_INFO_QUERY_KEY = ['credit-info', 'baseDetail'] as const;

/**
 * GET /api/app/userInfo/baseDetail — the person's record in clear (their own, over the authenticated
 * call), face status and step. Shape: creditInfoData of @lm/shared/schemas/credit-info (types only
 * here: the browser bundle does not carry zod).
 */
export function fetchBaseDetail(signal?: AbortSignal): Promise<CreditInfoData> {
  return api.get<CreditInfoData>('/api/app/userInfo/baseDetail', signal ? { signal } : undefined);
}

export const baseDetailQueryOptions = () =>
  queryOptions({
    queryKey: CREDIT_INFO_QUERY_KEY,
    queryFn: ({ signal }) => fetchBaseDetail(signal),
    // Always the stored record when the wizard opens (it may have changed on another device).
    staleTime: 0,
    refetchOnMount: 'always',
  });

export function useBaseDetail() {
  return useQuery(baseDetailQueryOptions());
}
