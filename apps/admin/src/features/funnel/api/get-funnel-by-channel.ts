import type { FunnelByChannelData, FunnelChannelRow } from '@lm/shared/schemas/funnel';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { type FunnelFilters, funnelParams, funnelQueryKey } from './types';

export type ChannelSort = keyof Omit<FunnelChannelRow, 'name'>;

export interface ByChannelPaging {
  page: number;
  pageSize: number;
  sort: ChannelSort;
  order: 'asc' | 'desc';
}

/** GET /api/admin/funnel/by-channel — one row per channel, paged and sorted. */
export function getFunnelByChannel(
  filters: FunnelFilters,
  paging: ByChannelPaging,
  signal?: AbortSignal,
): Promise<FunnelByChannelData> {
  return api.get<FunnelByChannelData>('/api/admin/funnel/by-channel', {
    params: { ...funnelParams(filters), ...paging },
    signal,
  });
}

/** Every row of the filter (for the CSV export), page by page. */
export async function getAllFunnelByChannel(
  filters: FunnelFilters,
  sort: Pick<ByChannelPaging, 'sort' | 'order'>,
): Promise<FunnelChannelRow[]> {
  const rows: FunnelChannelRow[] = [];
  for (let page = 1; ; page++) {
    const data = await getFunnelByChannel(filters, { ...sort, page, pageSize: 200 });
    rows.push(...data.list);
    if (rows.length >= data.total || data.list.length === 0) return rows;
  }
}

export const funnelByChannelQueryOptions = (filters: FunnelFilters, paging: ByChannelPaging) =>
  queryOptions({
    queryKey: [...funnelQueryKey, 'by-channel', filters, paging],
    queryFn: ({ signal }) => getFunnelByChannel(filters, paging, signal),
    placeholderData: keepPreviousData,
  });

export function useFunnelByChannel(filters: FunnelFilters, paging: ByChannelPaging) {
  return useQuery(funnelByChannelQueryOptions(filters, paging));
}
