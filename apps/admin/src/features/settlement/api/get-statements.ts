import type { StatementsData } from '@lm/shared/schemas/settlement';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/**
 * GET /api/admin/settlement/statements?month= — the month's statements (lenders, then channels), open or closed.
 * A viewer gets no amounts; a channel partner its own channels only.
 */
export function getStatements(month: string, signal?: AbortSignal): Promise<StatementsData> {
  return api.get<StatementsData>('/api/admin/settlement/statements', { params: { month }, signal });
}

export const settlementQueryKey = ['settlement'] as const;
export const statementsQueryKey = (month: string) => [...settlementQueryKey, 'statements', month] as const;

export const statementsQueryOptions = (month: string) =>
  queryOptions({
    queryKey: statementsQueryKey(month),
    queryFn: ({ signal }) => getStatements(month, signal),
  });

export function useStatements(month: string) {
  return useQuery(statementsQueryOptions(month));
}
