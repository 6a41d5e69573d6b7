import type { ChannelCostBody, ChannelCostsData } from '@lm/shared/schemas/channel-costs';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { channelCostsQueryKey } from './get-channel-costs';

/**
 * POST /api/admin/channels/:id/costs (admin) — a cost model from a day on; answers the channel's costs as the GET
 * does. A refusal (a past day, a second row on one day) answers 400 in words; the card shows it (silent).
 */
export function addChannelCost(input: { id: number; body: ChannelCostBody }): Promise<ChannelCostsData> {
  return api.post<ChannelCostsData>(
    `/api/admin/channels/${encodeURIComponent(input.id)}/costs`,
    { ...input.body },
    { silent: true },
  );
}

export function useAddChannelCost(config?: MutationConfig<typeof addChannelCost>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: addChannelCost,
    onSuccess: (data, ...rest) => {
      queryClient.setQueryData(channelCostsQueryKey(data.channelId), data);
      config?.onSuccess?.(data, ...rest);
    },
  });
}
