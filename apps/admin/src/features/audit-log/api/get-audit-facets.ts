import type { AuditFacets } from '@lm/shared/schemas/admin-leads';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { auditQueryKey } from './get-audit-log';

/** GET /api/admin/audit-log/facets — staff, actions and entities the filters offer. */
export function getAuditFacets(signal?: AbortSignal): Promise<AuditFacets> {
  return api.get<AuditFacets>('/api/admin/audit-log/facets', { signal, silent: true });
}

export const auditFacetsQueryOptions = () =>
  queryOptions({
    queryKey: [...auditQueryKey, 'facets'],
    queryFn: ({ signal }) => getAuditFacets(signal),
    staleTime: 60_000,
  });

export function useAuditFacets() {
  return useQuery(auditFacetsQueryOptions());
}
