import type { AdminLeadDetail } from '@lm/shared/schemas/admin-leads';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { leadsQueryKey } from './get-leads';

/** GET /api/admin/leads/:id — the lead, its consent and every delivery attempt. */
export function getLead(id: number, signal?: AbortSignal): Promise<AdminLeadDetail> {
  return api.get<AdminLeadDetail>(`/api/admin/leads/${encodeURIComponent(id)}`, { signal, silent: true });
}

export const leadQueryOptions = (id: number) =>
  queryOptions({
    queryKey: [...leadsQueryKey, 'detail', id],
    queryFn: ({ signal }) => getLead(id, signal),
  });

export function useLead(id: number | null) {
  return useQuery({ ...leadQueryOptions(id ?? 0), enabled: id !== null && id > 0 });
}
