import type { ChannelAdminDetail } from '@lm/shared/schemas/admin-channels';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { channelsQueryKey } from './get-channels';

/** GET /api/admin/channels/:id — the channel with its route codes and A/B arms. */
export function getChannel(id: number, signal?: AbortSignal): Promise<ChannelAdminDetail> {
  return api.get<ChannelAdminDetail>(`/api/admin/channels/${id}`, { signal });
}

export const channelQueryKey = (id: number) => [...channelsQueryKey, 'detail', id] as const;

export const channelQueryOptions = (id: number) =>
  queryOptions({
    queryKey: channelQueryKey(id),
    queryFn: ({ signal }) => getChannel(id, signal),
    staleTime: 0,
  });

export function useChannel(id: number | null) {
  return useQuery({ ...channelQueryOptions(id ?? 0), enabled: id !== null });
}
