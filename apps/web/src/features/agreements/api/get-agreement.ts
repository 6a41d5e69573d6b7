import type { AgreementData } from '@lm/shared/schemas/content';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { useChannelStore } from '@/lib/channel/store';

export type { AgreementData };

/**
 * GET /api/agreement/:code?adChannelCode — the version in force, naming the operator of the channel the page
 * was reached through (ADR 057); '' for none (the configured operator). Public; browsers may cache it 5 minutes.
 */
export function getAgreement(
  code: string,
  adChannelCode: string,
  signal?: AbortSignal,
): Promise<AgreementData> {
  return api.get<AgreementData>(`/api/agreement/${encodeURIComponent(code)}`, {
    // Empty values are left out of the query (cleanParams): no channel asks for the configured operator.
    params: { adChannelCode },
    silent: true,
    skipAuth: true,
    cancelPrevious: false,
    ...(signal ? { signal } : {}),
  });
}

export const agreementQueryOptions = (code: string, adChannelCode: string) =>
  queryOptions({
    queryKey: ['agreement-document', code, adChannelCode],
    queryFn: ({ signal }) => getAgreement(code, adChannelCode, signal),
    staleTime: 5 * 60_000,
  });

/**
 * The agreement as this visit's channel names it: asked once the channel is settled (h5Config answered or
 * failed), never first for no channel and then again for the channel — the page shows one party only.
 */
export function useAgreement(code: string) {
  const adChannelCode = useChannelStore((s) => s.config.adChannelCode);
  const settled = useChannelStore((s) => s.status === 'ready' || s.status === 'failed');
  return useQuery({ ...agreementQueryOptions(code, adChannelCode), enabled: settled });
}
