import type { ApplicationList } from '@lm/shared/schemas/privacy';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const APPLICATIONS_PAGE_SIZE = 10;

/** GET /api/user/applications?page&pageSize — every application, newest first, with its offers. */
export function getApplications(
  params: { page: number; pageSize: number },
  signal?: AbortSignal,
): Promise<ApplicationList> {
  return api.get<ApplicationList>('/api/user/applications', { params, signal });
}

export const applicationsQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: ['account', 'applications'],
    queryFn: ({ pageParam, signal }) =>
      getApplications({ page: pageParam, pageSize: APPLICATIONS_PAGE_SIZE }, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.list.length, 0);
      return loaded < last.total && last.list.length > 0 ? pages.length + 1 : undefined;
    },
  });

export function useApplications() {
  return useInfiniteQuery(applicationsQueryOptions());
}
