import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface ChannelOption {
  adChannelCode: string;
  name: string;
}

/** GET /api/admin/funnel/channels — every channel (for binding channel-partner accounts). */
export function getChannelOptions(signal?: AbortSignal): Promise<ChannelOption[]> {
  return api.get<ChannelOption[]>('/api/admin/funnel/channels', { signal });
}

export const channelOptionsQueryOptions = () =>
  queryOptions({
    queryKey: ['admin', 'staff', 'channel-options'],
    queryFn: ({ signal }) => getChannelOptions(signal),
    staleTime: 5 * 60_000,
  });

export function useChannelOptions() {
  return useQuery(channelOptionsQueryOptions());
}
