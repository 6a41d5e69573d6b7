import type { AdminUserDetail } from '@lm/shared/schemas/admin-leads';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { usersQueryKey } from './get-users';

/** GET /api/admin/users/:id — masked profile and the whole journey. */
export function getUser(id: number, signal?: AbortSignal): Promise<AdminUserDetail> {
  return api.get<AdminUserDetail>(`/api/admin/users/${encodeURIComponent(id)}`, { signal, silent: true });
}

export const userQueryOptions = (id: number) =>
  queryOptions({
    queryKey: [...usersQueryKey, 'detail', id],
    queryFn: ({ signal }) => getUser(id, signal),
  });

export function useUser(id: number) {
  return useQuery({ ...userQueryOptions(id), enabled: Number.isInteger(id) && id > 0 });
}
