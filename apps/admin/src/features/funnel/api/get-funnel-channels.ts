import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { funnelQueryKey } from './types';

export interface FunnelChannel {
  adChannelCode: string;
  name: string;
}

/** GET /api/admin/funnel/channels — the channels this account may pick (a channel partner: its own). */
export function getFunnelChannels(signal?: AbortSignal): Promise<FunnelChannel[]> {
  return api.get<FunnelChannel[]>('/api/admin/funnel/channels', { signal });
}

export const funnelChannelsQueryOptions = () =>
  queryOptions({
    queryKey: [...funnelQueryKey, 'channels'],
    queryFn: ({ signal }) => getFunnelChannels(signal),
    staleTime: 5 * 60_000,
  });

export function useFunnelChannels() {
  return useQuery(funnelChannelsQueryOptions());
}
