import type { AdjustmentBody, BookedEntryData } from '@lm/shared/schemas/settlement';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { settlementQueryKey } from './get-statements';

/** POST /api/admin/settlement/adjustments (admin) — a signed amount with its reason; refusals shown by the form. */
export function addAdjustment(body: AdjustmentBody): Promise<BookedEntryData> {
  return api.post<BookedEntryData>('/api/admin/settlement/adjustments', { ...body }, { silent: true });
}

export function useAddAdjustment(config?: MutationConfig<typeof addAdjustment>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: addAdjustment,
    onSuccess: (...args) => {
      void queryClient.invalidateQueries({ queryKey: settlementQueryKey });
      config?.onSuccess?.(...args);
    },
  });
}
