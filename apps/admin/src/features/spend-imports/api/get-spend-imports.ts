import type { SpendImportsData } from '@lm/shared/schemas/spend-imports';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/admin/spend-imports — the imports, the latest first (a viewer gets no totals). */
export function getSpendImports(signal?: AbortSignal): Promise<SpendImportsData> {
  return api.get<SpendImportsData>('/api/admin/spend-imports', { signal });
}

export const spendImportsQueryKey = ['spend-imports'] as const;

export const spendImportsQueryOptions = () =>
  queryOptions({ queryKey: spendImportsQueryKey, queryFn: ({ signal }) => getSpendImports(signal) });

export function useSpendImports() {
  return useQuery(spendImportsQueryOptions());
}
