import type { DataSharingList } from '@lm/shared/schemas/privacy';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/user/data-sharing — every lender that received (or was authorised to receive) the person's data. */
export function getDataSharing(signal?: AbortSignal): Promise<DataSharingList> {
  return api.get<DataSharingList>('/api/user/data-sharing', { signal });
}

const NOTICE_POLL_MS = 5_000;

export const dataSharingQueryKey = ['account', 'data-sharing'] as const;

export const dataSharingQueryOptions = () =>
  queryOptions({
    queryKey: dataSharingQueryKey,
    queryFn: ({ signal }) => getDataSharing(signal),
    // While a lender is being told (withdrawal or deletion notice pending), follow it.
    refetchInterval: (query) =>
      query.state.data?.list.some((e) => e.notice?.status === 'pending') ? NOTICE_POLL_MS : false,
  });

export function useDataSharing(options: { enabled?: boolean } = {}) {
  return useQuery({ ...dataSharingQueryOptions(), enabled: options.enabled ?? true });
}
