import type { RetryDeadData } from '@lm/shared/schemas/admin-leads';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { invalidateLeadViews } from './invalidate';

/** POST /api/admin/leads/retry-dead {partnerId} — every dead letter of one partner goes back to the queue. */
export function retryDeadLetters(input: { partnerId: number }): Promise<RetryDeadData> {
  return api.post<RetryDeadData>('/api/admin/leads/retry-dead', { partnerId: input.partnerId });
}

export function useRetryDeadLetters(config?: MutationConfig<typeof retryDeadLetters>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: retryDeadLetters,
    onSuccess: (...args) => {
      invalidateLeadViews(queryClient);
      config?.onSuccess?.(...args);
    },
  });
}
