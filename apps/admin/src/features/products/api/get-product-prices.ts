import type { ProductPricesData } from '@lm/shared/schemas/product-prices';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { productsQueryKey } from './get-products';

/**
 * GET /api/admin/products/:id/prices — the product's lead prices, the latest effective day first, and the one
 * in force today per model (a viewer gets no amounts).
 */
export function getProductPrices(id: number, signal?: AbortSignal): Promise<ProductPricesData> {
  return api.get<ProductPricesData>(`/api/admin/products/${encodeURIComponent(id)}/prices`, { signal });
}

export const productPricesQueryKey = (id: number) => [...productsQueryKey, 'detail', id, 'prices'] as const;

export const productPricesQueryOptions = (id: number) =>
  queryOptions({
    queryKey: productPricesQueryKey(id),
    queryFn: ({ signal }) => getProductPrices(id, signal),
  });

export function useProductPrices(id: number) {
  return useQuery(productPricesQueryOptions(id));
}
