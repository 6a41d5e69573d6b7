import type { RouteCodeItem } from '@lm/shared/schemas/admin-channels';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { channelQueryKey } from './get-channel';

export interface RouteCodeInput {
  channelId: number;
  routeCode: string;
  planTargetUrl?: string | null;
  status: 0 | 1;
}

/** POST /api/admin/channels/:id/route-codes */
export function createRouteCode({ channelId, ...body }: RouteCodeInput): Promise<RouteCodeItem> {
  return api.post<RouteCodeItem>(`/api/admin/channels/${channelId}/route-codes`, { ...body });
}

export function useCreateRouteCode(config?: MutationConfig<typeof createRouteCode>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: createRouteCode,
    onSuccess: (data, input, ...rest) => {
      void queryClient.invalidateQueries({ queryKey: channelQueryKey(input.channelId) });
      config?.onSuccess?.(data, input, ...rest);
    },
  });
}
