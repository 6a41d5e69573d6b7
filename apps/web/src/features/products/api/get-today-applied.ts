import type { ProductItem } from '@lm/shared/schemas/product';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type TodayAppliedProduct = ProductItem & { appliedAt: string; sources: ('apply' | 'consent')[] };

/** GET /api/product/listTodayApplyProduct — what the person applied to today (Shanghai day). */
export function getTodayApplied(signal?: AbortSignal): Promise<TodayAppliedProduct[]> {
  return api.get<TodayAppliedProduct[]>(
    '/api/product/listTodayApplyProduct',
    signal ? { signal } : undefined,
  );
}

export const todayAppliedQueryOptions = () =>
  queryOptions({
    queryKey: ['products', 'today-applied'],
    queryFn: ({ signal }) => getTodayApplied(signal),
  });

export function useTodayApplied(enabled = true) {
  return useQuery({ ...todayAppliedQueryOptions(), enabled });
}
