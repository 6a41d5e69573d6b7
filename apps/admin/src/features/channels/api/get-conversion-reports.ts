import type { AdReportStatus } from '@lm/shared/conversions';
import type { ConversionReportsData } from '@lm/shared/schemas/conversion-reports';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { channelQueryKey } from './get-channel';

export interface ConversionReportFilters {
  status?: AdReportStatus | undefined;
  step?: string | undefined;
  page: number;
  pageSize: number;
}

/** GET /api/admin/channels/:id/conversion-reports — the channel's reports, newest first, with the count per status. */
export function getConversionReports(
  channelId: number,
  filters: ConversionReportFilters,
  signal?: AbortSignal,
): Promise<ConversionReportsData> {
  return api.get<ConversionReportsData>(`/api/admin/channels/${channelId}/conversion-reports`, {
    params: { ...filters },
    signal,
  });
}

/** Under the channel's key; every page and filter under `conversionReportsQueryKey(id)`. */
export const conversionReportsQueryKey = (channelId: number) =>
  [...channelQueryKey(channelId), 'conversion-reports'] as const;

/** While a report of the page waits for the worker, the list refreshes itself this often (ms). */
export const PENDING_REFRESH_MS = 3000;

export function useConversionReports(channelId: number, filters: ConversionReportFilters) {
  return useQuery(
    queryOptions({
      queryKey: [...conversionReportsQueryKey(channelId), filters],
      queryFn: ({ signal }) => getConversionReports(channelId, filters, signal),
      placeholderData: keepPreviousData,
      staleTime: 0,
      refetchInterval: (q) =>
        q.state.data?.list.some((r) => r.status === 'pending') ? PENDING_REFRESH_MS : false,
    }),
  );
}
