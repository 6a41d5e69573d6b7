import type { AdminNoticeList, NoticeKind, NoticeStatus } from '@lm/shared/schemas/privacy';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface DeletionFilters {
  kind: NoticeKind;
  status?: NoticeStatus;
  /** true: only overdue; false: only not overdue; undefined: both. */
  overdue?: boolean;
  page: number;
  pageSize: number;
}

/** GET /api/admin/privacy/deletions?kind&status&overdue&page&pageSize */
export function getDeletions(filters: DeletionFilters, signal?: AbortSignal): Promise<AdminNoticeList> {
  return api.get<AdminNoticeList>('/api/admin/privacy/deletions', {
    params: {
      kind: filters.kind,
      status: filters.status,
      overdue: filters.overdue === undefined ? undefined : filters.overdue ? '1' : '0',
      page: filters.page,
      pageSize: filters.pageSize,
    },
    signal,
  });
}

export const deletionsQueryKey = ['admin', 'privacy', 'deletions'] as const;

export const deletionsQueryOptions = (filters: DeletionFilters) =>
  queryOptions({
    queryKey: [...deletionsQueryKey, filters],
    queryFn: ({ signal }) => getDeletions(filters, signal),
    placeholderData: keepPreviousData,
    // Notices move on their own (the worker sends, lenders confirm).
    refetchInterval: 60_000,
  });

export function useDeletions(filters: DeletionFilters) {
  return useQuery(deletionsQueryOptions(filters));
}
