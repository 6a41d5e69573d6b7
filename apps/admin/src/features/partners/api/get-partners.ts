import type { PartnerList } from '@lm/shared/schemas/admin-catalog';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface PartnerFilters {
  q?: string;
  status?: 'active' | 'suspended';
  sort?: 'id' | 'legalName' | 'updatedAt' | 'createdAt';
  order?: 'asc' | 'desc';
  page: number;
  pageSize: number;
}

/** GET /api/admin/partners?q&status&sort&order&page&pageSize */
export function getPartners(filters: PartnerFilters, signal?: AbortSignal): Promise<PartnerList> {
  return api.get<PartnerList>('/api/admin/partners', { params: { ...filters }, signal });
}

export const partnersQueryKey = ['admin', 'partners'] as const;

export const partnersQueryOptions = (filters: PartnerFilters) =>
  queryOptions({
    queryKey: [...partnersQueryKey, 'list', filters],
    queryFn: ({ signal }) => getPartners(filters, signal),
    placeholderData: keepPreviousData,
  });

export function usePartners(filters: PartnerFilters) {
  return useQuery(partnersQueryOptions(filters));
}
