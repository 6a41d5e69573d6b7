import type { ChannelAdminDetail, ChannelDraftInput } from '@lm/shared/schemas/admin-channels';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { channelQueryKey } from './get-channel';
import { channelsQueryKey } from './get-channels';

/** PUT /api/admin/channels/:id — the whole draft (empty fields clear the setting). */
export function updateChannel(input: { id: number; draft: ChannelDraftInput }): Promise<ChannelAdminDetail> {
  return api.put<ChannelAdminDetail>(`/api/admin/channels/${input.id}`, { ...input.draft });
}

export function useUpdateChannel(config?: MutationConfig<typeof updateChannel>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: updateChannel,
    onSuccess: (data, ...rest) => {
      queryClient.setQueryData(channelQueryKey(data.id), data);
      void queryClient.invalidateQueries({ queryKey: channelsQueryKey });
      config?.onSuccess?.(data, ...rest);
    },
  });
}
