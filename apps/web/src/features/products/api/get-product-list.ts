import type { ProductPage } from '@lm/shared/schemas/product';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const PRODUCT_PAGE_SIZE = 10;

export interface ProductListFilters {
  /** Amount wanted, in yuan. */
  amount?: number;
  termMonths?: number;
  companyType?: 'KAInstitution' | 'RegionInstitution';
}

/** GET /api/product/productList — one page of the catalogue (placement 6, product list). */
export function getProductList(
  pageNum: number,
  filters: ProductListFilters = {},
  signal?: AbortSignal,
): Promise<ProductPage> {
  return api.get<ProductPage>('/api/product/productList', {
    params: { pageNum, pageSize: PRODUCT_PAGE_SIZE, ...filters },
    ...(signal ? { signal } : {}),
  });
}

export const productListQueryOptions = (filters: ProductListFilters = {}) =>
  infiniteQueryOptions({
    queryKey: ['products', 'list', filters],
    queryFn: ({ pageParam, signal }) => getProductList(pageParam, filters, signal),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.pageNum * last.pageSize < last.total ? last.pageNum + 1 : undefined),
  });

export function useProductList(filters: ProductListFilters = {}) {
  return useInfiniteQuery(productListQueryOptions(filters));
}
