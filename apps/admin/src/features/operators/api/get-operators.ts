import type { OperatorListData } from '@lm/shared/schemas/operators';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface OperatorFilters {
  q?: string;
  sort?: 'id' | 'code' | 'companyName' | 'updatedAt';
  order?: 'asc' | 'desc';
  page: number;
  pageSize: number;
}

/** GET /api/admin/operators?q&sort&order&page&pageSize */
export function getOperators(filters: OperatorFilters, signal?: AbortSignal): Promise<OperatorListData> {
  return api.get<OperatorListData>('/api/admin/operators', { params: { ...filters }, signal });
}

export const operatorsQueryKey = ['admin', 'operators'] as const;

export const operatorsQueryOptions = (filters: OperatorFilters) =>
  queryOptions({
    queryKey: [...operatorsQueryKey, 'list', filters],
    queryFn: ({ signal }) => getOperators(filters, signal),
    placeholderData: keepPreviousData,
  });

export function useOperators(filters: OperatorFilters) {
  return useQuery(operatorsQueryOptions(filters));
}
