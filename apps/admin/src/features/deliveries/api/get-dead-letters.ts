import type { AdminLeadList } from '@lm/shared/schemas/admin-leads';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { deliveriesQueryKey } from './get-summary';

export interface DeadLetterFilters {
  partnerId?: number;
  page: number;
  pageSize: number;
}

/** GET /api/admin/leads?status=dead — the dead letters, newest first. */
export function getDeadLetters(filters: DeadLetterFilters, signal?: AbortSignal): Promise<AdminLeadList> {
  return api.get<AdminLeadList>('/api/admin/leads', {
    params: { ...filters, status: 'dead', sort: 'createdAt', order: 'desc' },
    signal,
  });
}

export const deadLettersQueryOptions = (filters: DeadLetterFilters) =>
  queryOptions({
    queryKey: [...deliveriesQueryKey, 'dead', filters],
    queryFn: ({ signal }) => getDeadLetters(filters, signal),
    placeholderData: keepPreviousData,
  });

export function useDeadLetters(filters: DeadLetterFilters) {
  return useQuery(deadLettersQueryOptions(filters));
}
