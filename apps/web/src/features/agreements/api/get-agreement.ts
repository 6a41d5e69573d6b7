import type { AgreementData } from '@lm/shared/schemas/content';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type { AgreementData };

/** GET /api/agreement/:code — the version in force (public; the server lets browsers cache it 5 minutes). */
export function getAgreement(code: string, signal?: AbortSignal): Promise<AgreementData> {
  return api.get<AgreementData>(`/api/agreement/${encodeURIComponent(code)}`, {
    silent: true,
    skipAuth: true,
    cancelPrevious: false,
    ...(signal ? { signal } : {}),
  });
}

export const agreementQueryOptions = (code: string) =>
  queryOptions({
    queryKey: ['agreement-document', code],
    queryFn: ({ signal }) => getAgreement(code, signal),
    staleTime: 5 * 60_000,
  });

export function useAgreement(code: string) {
  return useQuery(agreementQueryOptions(code));
}
