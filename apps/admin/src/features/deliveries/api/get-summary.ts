import type { DeliverySummaryData } from '@lm/shared/schemas/admin-leads';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/admin/deliveries/summary — queue state per partner. */
export function getDeliverySummary(signal?: AbortSignal): Promise<DeliverySummaryData> {
  return api.get<DeliverySummaryData>('/api/admin/deliveries/summary', { signal });
}

export const deliveriesQueryKey = ['admin', 'deliveries'] as const;

export const deliverySummaryQueryOptions = () =>
  queryOptions({
    queryKey: [...deliveriesQueryKey, 'summary'],
    queryFn: ({ signal }) => getDeliverySummary(signal),
    // The worker moves the queues on its own.
    refetchInterval: 30_000,
  });

export function useDeliverySummary() {
  return useQuery(deliverySummaryQueryOptions());
}
