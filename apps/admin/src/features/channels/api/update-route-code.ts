import type { RouteCodeItem } from '@lm/shared/schemas/admin-channels';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import type { RouteCodeInput } from './create-route-code';
import { channelQueryKey } from './get-channel';

/** PUT /api/admin/channels/:id/route-codes/:routeCode {planTargetUrl, status} */
export function updateRouteCode({ channelId, routeCode, ...body }: RouteCodeInput): Promise<RouteCodeItem> {
  return api.put<RouteCodeItem>(
    `/api/admin/channels/${channelId}/route-codes/${encodeURIComponent(routeCode)}`,
    { ...body },
  );
}

export function useUpdateRouteCode(config?: MutationConfig<typeof updateRouteCode>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: updateRouteCode,
    onSuccess: (data, input, ...rest) => {
      void queryClient.invalidateQueries({ queryKey: channelQueryKey(input.channelId) });
      config?.onSuccess?.(data, input, ...rest);
    },
  });
}
