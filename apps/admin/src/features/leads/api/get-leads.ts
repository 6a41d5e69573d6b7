import type { AdminLeadList, AdminLeadStatus } from '@lm/shared/schemas/admin-leads';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface LeadFilters {
  partnerId?: number;
  productId?: number;
  userId?: number;
  status?: AdminLeadStatus;
  channelCode?: string;
  from?: string;
  to?: string;
  sort?: 'createdAt' | 'attempts' | 'nextAttemptAt';
  order?: 'asc' | 'desc';
  page: number;
  pageSize: number;
}

/** GET /api/admin/leads */
export function getLeads(filters: LeadFilters, signal?: AbortSignal): Promise<AdminLeadList> {
  return api.get<AdminLeadList>('/api/admin/leads', { params: { ...filters }, signal });
}

/** Shared with the deliveries page's mutations, which invalidate it by this prefix. */
export const leadsQueryKey = ['admin', 'leads'] as const;

export const leadsQueryOptions = (filters: LeadFilters) =>
  queryOptions({
    queryKey: [...leadsQueryKey, 'list', filters],
    queryFn: ({ signal }) => getLeads(filters, signal),
    placeholderData: keepPreviousData,
  });

export function useLeads(filters: LeadFilters) {
  return useQuery(leadsQueryOptions(filters));
}
