import type { ChannelAdminDetail } from '@lm/shared/schemas/admin-channels';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { channelsQueryKey } from './get-channels';

/** PUT /api/admin/channels/:id/status {channelStatus} — 1 enable, 0 disable. */
export function setChannelStatus(input: { id: number; channelStatus: 0 | 1 }): Promise<ChannelAdminDetail> {
  return api.put<ChannelAdminDetail>(`/api/admin/channels/${input.id}/status`, {
    channelStatus: input.channelStatus,
  });
}

export function useSetChannelStatus(config?: MutationConfig<typeof setChannelStatus>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: setChannelStatus,
    onSuccess: (...args) => {
      void queryClient.invalidateQueries({ queryKey: channelsQueryKey });
      config?.onSuccess?.(...args);
    },
  });
}
