import type { AdminLeadDetail } from '@lm/shared/schemas/admin-leads';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { invalidateLeadViews } from './invalidate';

/** POST /api/admin/leads/:id/retry — a dead letter goes back to the queue (attempts reset). */
export function retryLead(input: { id: number }): Promise<AdminLeadDetail> {
  return api.post<AdminLeadDetail>(`/api/admin/leads/${encodeURIComponent(input.id)}/retry`);
}

export function useRetryLead(config?: MutationConfig<typeof retryLead>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: retryLead,
    onSuccess: (...args) => {
      invalidateLeadViews(queryClient);
      config?.onSuccess?.(...args);
    },
  });
}
