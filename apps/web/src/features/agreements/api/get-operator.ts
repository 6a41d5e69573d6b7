import type { OperatorInfo } from '@lm/shared/schemas/content';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type { OperatorInfo };

/** GET /api/content/operator — who runs the platform and how to reach it (public, cached 5 minutes). */
export function getOperator(signal?: AbortSignal): Promise<OperatorInfo> {
  return api.get<OperatorInfo>('/api/content/operator', {
    silent: true,
    skipAuth: true,
    cancelPrevious: false,
    ...(signal ? { signal } : {}),
  });
}

export const operatorQueryOptions = () =>
  queryOptions({
    queryKey: ['operator'],
    queryFn: ({ signal }) => getOperator(signal),
    staleTime: 30 * 60_000,
  });

export function useOperator() {
  return useQuery(operatorQueryOptions());
}
