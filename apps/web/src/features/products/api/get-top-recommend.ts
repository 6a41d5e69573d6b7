import type { ProductItem } from '@lm/shared/schemas/product';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/product/topRecommend — the head of the catalogue (placement 4, top recommendations). */
export function getTopRecommend(size: number, signal?: AbortSignal): Promise<ProductItem[]> {
  return api.get<ProductItem[]>('/api/product/topRecommend', {
    params: { size },
    cancelPrevious: false,
    ...(signal ? { signal } : {}),
  });
}

export const topRecommendQueryOptions = (size = 3) =>
  queryOptions({
    queryKey: ['products', 'top', size],
    queryFn: ({ signal }) => getTopRecommend(size, signal),
  });

export function useTopRecommend(size = 3) {
  return useQuery(topRecommendQueryOptions(size));
}
