import type { AdminLeadDetail } from '@lm/shared/schemas/admin-leads';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { invalidateLeadViews } from './invalidate';

/** POST /api/admin/leads/:id/discard {reason} — a dead letter is given up for good. */
export function discardLead(input: { id: number; reason: string }): Promise<AdminLeadDetail> {
  return api.post<AdminLeadDetail>(`/api/admin/leads/${encodeURIComponent(input.id)}/discard`, {
    reason: input.reason,
  });
}

export function useDiscardLead(config?: MutationConfig<typeof discardLead>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: discardLead,
    onSuccess: (...args) => {
      invalidateLeadViews(queryClient);
      config?.onSuccess?.(...args);
    },
  });
}
