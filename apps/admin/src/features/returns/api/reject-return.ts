import type { AdminReturnItem } from '@lm/shared/schemas/returns';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { returnsQueryKey } from './get-returns';

/** POST /api/admin/returns/:id/reject {note} — a disputed return is rejected: nothing is reversed. */
export function rejectReturn(input: { id: number; note: string }): Promise<AdminReturnItem> {
  return api.post<AdminReturnItem>(`/api/admin/returns/${encodeURIComponent(input.id)}/reject`, {
    note: input.note,
  });
}

export function useRejectReturn(config?: MutationConfig<typeof rejectReturn>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: rejectReturn,
    onSuccess: (...args) => {
      void queryClient.invalidateQueries({ queryKey: returnsQueryKey });
      config?.onSuccess?.(...args);
    },
  });
}
