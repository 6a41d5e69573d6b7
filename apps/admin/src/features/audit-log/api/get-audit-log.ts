import type { AuditEntry } from '@lm/shared/schemas/admin';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface AuditFilters {
  entity?: string;
  entityId?: string;
  staffId?: number;
  action?: string;
  from?: string;
  to?: string;
  order?: 'asc' | 'desc';
  page: number;
  pageSize: number;
}

export interface AuditLogPage {
  total: number;
  page: number;
  pageSize: number;
  list: AuditEntry[];
}

/** GET /api/admin/audit-log — who changed or revealed what, newest first. */
export function getAuditLog(filters: AuditFilters, signal?: AbortSignal): Promise<AuditLogPage> {
  return api.get<AuditLogPage>('/api/admin/audit-log', {
    params: { ...filters, sort: 'createdAt' },
    signal,
  });
}

export const auditQueryKey = ['admin', 'audit-log'] as const;

export const auditLogQueryOptions = (filters: AuditFilters) =>
  queryOptions({
    queryKey: [...auditQueryKey, 'list', filters],
    queryFn: ({ signal }) => getAuditLog(filters, signal),
    placeholderData: keepPreviousData,
  });

export function useAuditLog(filters: AuditFilters) {
  return useQuery(auditLogQueryOptions(filters));
}
