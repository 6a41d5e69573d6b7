import type { ProductList, ProductStatusValue } from '@lm/shared/schemas/admin-catalog';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface ProductFilters {
  q?: string;
  partnerId?: number;
  status?: ProductStatusValue;
  linkType?: number;
  sort?: 'id' | 'priority' | 'aprBps' | 'priceFen' | 'updatedAt';
  order?: 'asc' | 'desc';
  page: number;
  pageSize: number;
}

/** GET /api/admin/products?q&partnerId&status&linkType&sort&order&page&pageSize */
export function getProducts(filters: ProductFilters, signal?: AbortSignal): Promise<ProductList> {
  return api.get<ProductList>('/api/admin/products', { params: { ...filters }, signal });
}

export const productsQueryKey = ['admin', 'products'] as const;

export const productsQueryOptions = (filters: ProductFilters) =>
  queryOptions({
    queryKey: [...productsQueryKey, 'list', filters],
    queryFn: ({ signal }) => getProducts(filters, signal),
    placeholderData: keepPreviousData,
    // Today's counters move with every match.
    refetchInterval: 60_000,
  });

export function useProducts(filters: ProductFilters) {
  return useQuery(productsQueryOptions(filters));
}
