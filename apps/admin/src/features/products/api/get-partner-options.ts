import type { PartnerList } from '@lm/shared/schemas/admin-catalog';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface PartnerOption {
  id: number;
  legalName: string;
  status: 'active' | 'suspended';
  allowedHosts: string[];
}

/** GET /api/admin/partners (every lender, for the product form's and the list filter's picker). */
export async function getPartnerOptions(signal?: AbortSignal): Promise<PartnerOption[]> {
  const all: PartnerOption[] = [];
  for (let page = 1; ; page++) {
    const data = await api.get<PartnerList>('/api/admin/partners', {
      params: { page, pageSize: 200, sort: 'legalName', order: 'asc' },
      signal,
    });
    all.push(
      ...data.list.map((p) => ({
        id: p.id,
        legalName: p.legalName,
        status: p.status,
        allowedHosts: p.allowedHosts,
      })),
    );
    if (all.length >= data.total || data.list.length === 0) return all;
  }
}

export const partnerOptionsQueryOptions = () =>
  queryOptions({
    queryKey: ['admin', 'products', 'partner-options'],
    queryFn: ({ signal }) => getPartnerOptions(signal),
  });

export function usePartnerOptions() {
  return useQuery(partnerOptionsQueryOptions());
}
