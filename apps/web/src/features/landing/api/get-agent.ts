import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** agentData of @lm/shared/schemas/product (type only here). */
export interface AgentData {
  adChannelCode: string;
  agentName: string;
  operatorName: string | null;
  operatorFilingNumber: string | null;
  serviceHours: { from: string; to: string };
  online: boolean;
}

/** GET /api/agent/get — the customer-service contact of the channel. Silent. */
export function getAgent(adChannelCode: string, signal?: AbortSignal): Promise<AgentData> {
  return api.get<AgentData>('/api/agent/get', {
    params: { adChannelCode },
    silent: true,
    ...(signal ? { signal } : {}),
  });
}

export const agentQueryOptions = (adChannelCode: string) =>
  queryOptions({
    queryKey: ['agent', adChannelCode],
    queryFn: ({ signal }) => getAgent(adChannelCode, signal),
  });

export function useAgent(adChannelCode: string) {
  return useQuery(agentQueryOptions(adChannelCode));
}
