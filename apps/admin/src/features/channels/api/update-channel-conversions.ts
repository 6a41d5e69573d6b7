import type { ChannelConversionsBody, ChannelConversionsData } from '@lm/shared/schemas/conversions';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { channelConversionsQueryKey } from './get-channel-conversions';

/** PUT /api/admin/channels/:id/conversions — credentials absent stay as stored; '' removes one. */
export function updateChannelConversions(input: {
  id: number;
  body: ChannelConversionsBody;
}): Promise<ChannelConversionsData> {
  return api.put<ChannelConversionsData>(`/api/admin/channels/${input.id}/conversions`, input.body);
}

export function useUpdateChannelConversions(config?: MutationConfig<typeof updateChannelConversions>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: updateChannelConversions,
    onSuccess: (data, ...rest) => {
      queryClient.setQueryData(channelConversionsQueryKey(data.channelId), data);
      config?.onSuccess?.(data, ...rest);
    },
  });
}
