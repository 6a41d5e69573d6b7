import type { OperatorDetail } from '@lm/shared/schemas/operators';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { operatorsQueryKey } from './get-operators';

/** GET /api/admin/operators/:id — the record and the channels that name it. */
export function getOperator(id: number, signal?: AbortSignal): Promise<OperatorDetail> {
  return api.get<OperatorDetail>(`/api/admin/operators/${encodeURIComponent(id)}`, { signal });
}

export const operatorQueryOptions = (id: number) =>
  queryOptions({
    queryKey: [...operatorsQueryKey, 'detail', id],
    queryFn: ({ signal }) => getOperator(id, signal),
  });

export function useOperator(id: number | null) {
  return useQuery({ ...operatorQueryOptions(id ?? 0), enabled: id !== null });
}
