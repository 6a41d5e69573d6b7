import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { channelQueryKey } from './get-channel';

/** DELETE /api/admin/channels/:id/route-codes/:routeCode */
export function deleteRouteCode(input: { channelId: number; routeCode: string }): Promise<{ deleted: true }> {
  return api.delete<{ deleted: true }>(
    `/api/admin/channels/${input.channelId}/route-codes/${encodeURIComponent(input.routeCode)}`,
  );
}

export function useDeleteRouteCode(config?: MutationConfig<typeof deleteRouteCode>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: deleteRouteCode,
    onSuccess: (data, input, ...rest) => {
      void queryClient.invalidateQueries({ queryKey: channelQueryKey(input.channelId) });
      config?.onSuccess?.(data, input, ...rest);
    },
  });
}
