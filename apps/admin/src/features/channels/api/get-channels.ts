import type { ChannelListData } from '@lm/shared/schemas/admin-channels';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface ChannelFilters {
  q?: string;
  status?: 0 | 1;
  linkType?: number;
  sort?: 'id' | 'name' | 'updatedAt' | 'adChannelCode';
  order?: 'asc' | 'desc';
  page: number;
  pageSize: number;
}

/** GET /api/admin/channels?q&status&linkType&sort&order&page&pageSize */
export function getChannels(filters: ChannelFilters, signal?: AbortSignal): Promise<ChannelListData> {
  return api.get<ChannelListData>('/api/admin/channels', { params: { ...filters }, signal });
}

export const channelsQueryKey = ['admin', 'channels'] as const;

export const channelsQueryOptions = (filters: ChannelFilters) =>
  queryOptions({
    queryKey: [...channelsQueryKey, 'list', filters],
    queryFn: ({ signal }) => getChannels(filters, signal),
    placeholderData: keepPreviousData,
  });

export function useChannels(filters: ChannelFilters) {
  return useQuery(channelsQueryOptions(filters));
}
