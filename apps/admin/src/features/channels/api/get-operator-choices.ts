import type { OperatorChoices } from '@lm/shared/schemas/operators';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/admin/operators/choices — the operators a channel may name, and the configured default one. */
export function getOperatorChoices(signal?: AbortSignal): Promise<OperatorChoices> {
  return api.get<OperatorChoices>('/api/admin/operators/choices', { signal });
}

export const operatorChoicesQueryOptions = () =>
  queryOptions({
    queryKey: ['admin', 'operators', 'choices'],
    queryFn: ({ signal }) => getOperatorChoices(signal),
  });

export function useOperatorChoices() {
  return useQuery(operatorChoicesQueryOptions());
}
