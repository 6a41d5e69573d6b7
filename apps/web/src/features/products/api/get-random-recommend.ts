import type { ProductItem } from '@lm/shared/schemas/product';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/product/randomRecommend — one product drawn at random (placement 7), or null. */
export function getRandomRecommend(
  excludeProductId?: string,
  signal?: AbortSignal,
): Promise<ProductItem | null> {
  return api.get<ProductItem | null>('/api/product/randomRecommend', {
    params: { excludeProductId },
    cancelPrevious: false,
    ...(signal ? { signal } : {}),
  });
}

export const randomRecommendQueryOptions = (excludeProductId?: string) =>
  queryOptions({
    queryKey: ['products', 'random', excludeProductId ?? null],
    queryFn: ({ signal }) => getRandomRecommend(excludeProductId, signal),
    // A new draw on every visit, not a cached one.
    staleTime: 0,
  });

export function useRandomRecommend(excludeProductId?: string, enabled = true) {
  return useQuery({ ...randomRecommendQueryOptions(excludeProductId), enabled });
}
