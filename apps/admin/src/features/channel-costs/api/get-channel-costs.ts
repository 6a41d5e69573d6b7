import type { ChannelCostsData } from '@lm/shared/schemas/channel-costs';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/**
 * GET /api/admin/channels/:id/costs — the channel's cost rows, the latest effective day first, and the one in
 * force today (a viewer gets no amounts).
 */
export function getChannelCosts(id: number, signal?: AbortSignal): Promise<ChannelCostsData> {
  return api.get<ChannelCostsData>(`/api/admin/channels/${encodeURIComponent(id)}/costs`, { signal });
}

export const channelCostsQueryKey = (id: number) => ['channel-costs', id] as const;

export const channelCostsQueryOptions = (id: number) =>
  queryOptions({
    queryKey: channelCostsQueryKey(id),
    queryFn: ({ signal }) => getChannelCosts(id, signal),
  });

export function useChannelCosts(id: number) {
  return useQuery(channelCostsQueryOptions(id));
}
