import type { ProductItem } from '@lm/shared/schemas/product';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface ProductColumn {
  columnCode: 'KAInstitution' | 'RegionInstitution';
  columnName: string;
  list: ProductItem[];
}

/** GET /api/product/columnRecommendProductList — recommended products by column (placement 5, home list). */
export function getColumnRecommend(size: number, signal?: AbortSignal): Promise<ProductColumn[]> {
  return api.get<ProductColumn[]>('/api/product/columnRecommendProductList', {
    params: { size },
    cancelPrevious: false,
    ...(signal ? { signal } : {}),
  });
}

export const columnRecommendQueryOptions = (size = 6) =>
  queryOptions({
    queryKey: ['products', 'columns', size],
    queryFn: ({ signal }) => getColumnRecommend(size, signal),
  });

export function useColumnRecommend(size = 6) {
  return useQuery(columnRecommendQueryOptions(size));
}
