import type { ChannelConversionsData } from '@lm/shared/schemas/conversions';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { channelQueryKey } from './get-channel';

/** GET /api/admin/channels/:id/conversions — the channel's reporting to its ad platform (secrets masked). */
export function getChannelConversions(id: number, signal?: AbortSignal): Promise<ChannelConversionsData> {
  return api.get<ChannelConversionsData>(`/api/admin/channels/${id}/conversions`, { signal });
}

/** Under the channel's key: saving the channel (its 广告回传 capture) refreshes what would stop reporting. */
export const channelConversionsQueryKey = (id: number) => [...channelQueryKey(id), 'conversions'] as const;

export function useChannelConversions(id: number) {
  return useQuery(
    queryOptions({
      queryKey: channelConversionsQueryKey(id),
      queryFn: ({ signal }) => getChannelConversions(id, signal),
      staleTime: 0,
    }),
  );
}
