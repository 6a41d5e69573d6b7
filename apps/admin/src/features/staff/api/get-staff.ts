import type { StaffListItem } from '@lm/shared/schemas/auth';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type StaffRole = StaffListItem['role'];

export interface StaffFilters {
  keyword?: string | undefined;
  role?: StaffRole | undefined;
  status?: 'active' | 'disabled' | undefined;
  sort: 'id' | 'name' | 'role' | 'status' | 'createdAt' | 'lastLoginAt';
  order: 'asc' | 'desc';
  page: number;
  pageSize: number;
}

export interface StaffListData {
  total: number;
  page: number;
  pageSize: number;
  list: StaffListItem[];
}

/** GET /api/admin/staff?keyword&role&status&sort&order&page&pageSize (admin only) */
export function getStaff(filters: StaffFilters, signal?: AbortSignal): Promise<StaffListData> {
  return api.get<StaffListData>('/api/admin/staff', { params: { ...filters }, signal });
}

/** Every account of the filter (for the CSV export), page by page. */
export async function getAllStaff(filters: StaffFilters): Promise<StaffListItem[]> {
  const rows: StaffListItem[] = [];
  for (let page = 1; ; page++) {
    const data = await getStaff({ ...filters, page, pageSize: 200 });
    rows.push(...data.list);
    if (rows.length >= data.total || data.list.length === 0) return rows;
  }
}

export const staffQueryKey = ['admin', 'staff'] as const;

export const staffQueryOptions = (filters: StaffFilters) =>
  queryOptions({
    queryKey: [...staffQueryKey, 'list', filters],
    queryFn: ({ signal }) => getStaff(filters, signal),
    placeholderData: keepPreviousData,
  });

export function useStaff(filters: StaffFilters) {
  return useQuery(staffQueryOptions(filters));
}
