import type { PartnerItem } from '@lm/shared/schemas/admin-catalog';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { partnersQueryKey } from './get-partners';

/** GET /api/admin/partners/:id */
export function getPartner(id: number, signal?: AbortSignal): Promise<PartnerItem> {
  return api.get<PartnerItem>(`/api/admin/partners/${encodeURIComponent(id)}`, { signal });
}

export const partnerQueryOptions = (id: number) =>
  queryOptions({
    queryKey: [...partnersQueryKey, 'detail', id],
    queryFn: ({ signal }) => getPartner(id, signal),
  });

export function usePartner(id: number | null) {
  return useQuery({ ...partnerQueryOptions(id ?? 0), enabled: id !== null });
}
