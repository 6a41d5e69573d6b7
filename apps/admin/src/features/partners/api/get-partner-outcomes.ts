import type { PartnerOutcomesData } from '@lm/shared/schemas/partner-outcomes';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { partnersQueryKey } from './get-partners';

export interface PartnerOutcomesRange {
  /** Shanghai calendar days, YYYY-MM-DD. */
  from: string;
  to: string;
}

/**
 * GET /api/admin/partners/:id/outcomes?from&to — the lender's delivered leads in the range by outcome, the amounts,
 * its latency to report and its latest reports (机构反馈).
 */
export function getPartnerOutcomes(
  id: number,
  range: PartnerOutcomesRange,
  signal?: AbortSignal,
): Promise<PartnerOutcomesData> {
  return api.get<PartnerOutcomesData>(`/api/admin/partners/${encodeURIComponent(id)}/outcomes`, {
    params: { from: range.from, to: range.to },
    signal,
  });
}

export const partnerOutcomesQueryOptions = (id: number, range: PartnerOutcomesRange) =>
  queryOptions({
    queryKey: [...partnersQueryKey, 'detail', id, 'outcomes', range.from, range.to],
    queryFn: ({ signal }) => getPartnerOutcomes(id, range, signal),
    placeholderData: keepPreviousData,
  });

export function usePartnerOutcomes(id: number, range: PartnerOutcomesRange) {
  return useQuery(partnerOutcomesQueryOptions(id, range));
}
