import type { ChannelAdminDetail, ChannelDraftInput } from '@lm/shared/schemas/admin-channels';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { channelsQueryKey } from './get-channels';

export type CreateChannelInput = ChannelDraftInput & { adChannelCode: string };

/** POST /api/admin/channels */
export function createChannel(input: CreateChannelInput): Promise<ChannelAdminDetail> {
  return api.post<ChannelAdminDetail>('/api/admin/channels', { ...input });
}

export function useCreateChannel(config?: MutationConfig<typeof createChannel>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: createChannel,
    onSuccess: (...args) => {
      void queryClient.invalidateQueries({ queryKey: channelsQueryKey });
      config?.onSuccess?.(...args);
    },
  });
}
