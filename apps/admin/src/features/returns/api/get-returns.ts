import type { ReturnStatus } from '@lm/shared/ledger';
import type { AdminReturnList } from '@lm/shared/schemas/returns';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const returnsQueryKey = ['admin', 'returns'] as const;

export interface ReturnFilters {
  /** undefined: every status. */
  status?: ReturnStatus;
  partnerId?: number;
  page: number;
  pageSize: number;
}

/** GET /api/admin/returns — lead returns, newest first (a viewer gets no amounts). */
export function getReturns(filters: ReturnFilters, signal?: AbortSignal): Promise<AdminReturnList> {
  return api.get<AdminReturnList>('/api/admin/returns', { params: { ...filters }, signal });
}

export const returnsQueryOptions = (filters: ReturnFilters) =>
  queryOptions({
    queryKey: [...returnsQueryKey, filters],
    queryFn: ({ signal }) => getReturns(filters, signal),
    placeholderData: keepPreviousData,
  });

export function useReturns(filters: ReturnFilters) {
  return useQuery(returnsQueryOptions(filters));
}
