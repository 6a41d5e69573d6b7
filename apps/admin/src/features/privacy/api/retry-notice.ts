import type { AdminNoticeItem } from '@lm/shared/schemas/privacy';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { deletionsQueryKey } from './get-deletions';

/** POST /api/admin/privacy/notices/:id/retry — send a dead notice again, or remind a lender of an unconfirmed deletion. */
export function retryNotice(input: { id: number }): Promise<AdminNoticeItem> {
  return api.post<AdminNoticeItem>(`/api/admin/privacy/notices/${encodeURIComponent(input.id)}/retry`);
}

export function useRetryNotice(config?: MutationConfig<typeof retryNotice>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: retryNotice,
    onSuccess: (...args) => {
      void queryClient.invalidateQueries({ queryKey: deletionsQueryKey });
      config?.onSuccess?.(...args);
    },
  });
}
