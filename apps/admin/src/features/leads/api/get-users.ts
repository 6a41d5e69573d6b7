import type { AdminUserList } from '@lm/shared/schemas/admin-leads';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface UserFilters {
  /** Full 11-digit phone (the server finds it by its blind index). */
  phone?: string;
  channelCode?: string;
  status?: 'active' | 'cancelled';
  userInfoStatus?: number;
  from?: string;
  to?: string;
  sort?: 'createdAt' | 'lastLoginAt';
  order?: 'asc' | 'desc';
  page: number;
  pageSize: number;
}

/** GET /api/admin/users */
export function getUsers(filters: UserFilters, signal?: AbortSignal): Promise<AdminUserList> {
  return api.get<AdminUserList>('/api/admin/users', { params: { ...filters }, signal });
}

export const usersQueryKey = ['admin', 'users'] as const;

export const usersQueryOptions = (filters: UserFilters) =>
  queryOptions({
    queryKey: [...usersQueryKey, 'list', filters],
    queryFn: ({ signal }) => getUsers(filters, signal),
    placeholderData: keepPreviousData,
  });

export function useUsers(filters: UserFilters) {
  return useQuery(usersQueryOptions(filters));
}
