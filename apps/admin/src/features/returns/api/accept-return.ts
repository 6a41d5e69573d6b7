import type { AdminReturnItem } from '@lm/shared/schemas/returns';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { returnsQueryKey } from './get-returns';

/** POST /api/admin/returns/:id/accept {note} — a disputed return is accepted: the lead is reversed in the ledger. */
export function acceptReturn(input: { id: number; note: string }): Promise<AdminReturnItem> {
  return api.post<AdminReturnItem>(`/api/admin/returns/${encodeURIComponent(input.id)}/accept`, {
    note: input.note,
  });
}

export function useAcceptReturn(config?: MutationConfig<typeof acceptReturn>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: acceptReturn,
    onSuccess: (...args) => {
      void queryClient.invalidateQueries({ queryKey: returnsQueryKey });
      config?.onSuccess?.(...args);
    },
  });
}
