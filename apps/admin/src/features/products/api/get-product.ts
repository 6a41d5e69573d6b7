import type { ProductDetail } from '@lm/shared/schemas/admin-catalog';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { productsQueryKey } from './get-products';

/** GET /api/admin/products/:id */
export function getProduct(id: number, signal?: AbortSignal): Promise<ProductDetail> {
  return api.get<ProductDetail>(`/api/admin/products/${encodeURIComponent(id)}`, { signal });
}

export const productQueryOptions = (id: number) =>
  queryOptions({
    queryKey: [...productsQueryKey, 'detail', id],
    queryFn: ({ signal }) => getProduct(id, signal),
  });

export function useProduct(id: number | null) {
  return useQuery({ ...productQueryOptions(id ?? 0), enabled: id !== null });
}
