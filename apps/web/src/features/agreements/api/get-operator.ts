import type { OperatorInfo } from '@lm/shared/schemas/content';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { useChannelStore } from '@/lib/channel/store';

export type { OperatorInfo };

/**
 * GET /api/content/operator?adChannelCode — who runs the pages of that channel and how to reach it (ADR 057;
 * '' for none: the configured operator). Public, cached 5 minutes.
 */
export function getOperator(adChannelCode: string, signal?: AbortSignal): Promise<OperatorInfo> {
  return api.get<OperatorInfo>('/api/content/operator', {
    // Empty values are left out of the query (cleanParams): no channel asks for the configured operator.
    params: { adChannelCode },
    silent: true,
    skipAuth: true,
    cancelPrevious: false,
    ...(signal ? { signal } : {}),
  });
}

export const operatorQueryOptions = (adChannelCode: string) =>
  queryOptions({
    queryKey: ['operator', adChannelCode],
    queryFn: ({ signal }) => getOperator(adChannelCode, signal),
    staleTime: 30 * 60_000,
  });

/** The operator of this visit's channel, asked once the channel is settled. */
export function useOperator() {
  const adChannelCode = useChannelStore((s) => s.config.adChannelCode);
  const settled = useChannelStore((s) => s.status === 'ready' || s.status === 'failed');
  return useQuery({ ...operatorQueryOptions(adChannelCode), enabled: settled });
}
