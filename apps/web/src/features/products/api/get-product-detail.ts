import type { ProductDetail } from '@lm/shared/schemas/product';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/product/detail — a listed product with licence, shared fields and active hours. */
export function getProductDetail(productId: string, signal?: AbortSignal): Promise<ProductDetail> {
  // Silent: the page shows "not found" itself rather than a toast.
  return api.get<ProductDetail>('/api/product/detail', {
    params: { productId },
    silent: true,
    ...(signal ? { signal } : {}),
  });
}

export const productDetailQueryOptions = (productId: string) =>
  queryOptions({
    queryKey: ['products', 'detail', productId],
    queryFn: ({ signal }) => getProductDetail(productId, signal),
  });

export function useProductDetail(productId: string | null) {
  return useQuery({ ...productDetailQueryOptions(productId ?? ''), enabled: Boolean(productId) });
}
