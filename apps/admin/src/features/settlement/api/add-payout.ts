import type { BookedEntryData, PayoutBody } from '@lm/shared/schemas/settlement';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { settlementQueryKey } from './get-statements';

/** POST /api/admin/settlement/payouts (admin) — money that changed hands, booked as −amount. */
export function addPayout(body: PayoutBody): Promise<BookedEntryData> {
  return api.post<BookedEntryData>('/api/admin/settlement/payouts', { ...body }, { silent: true });
}

export function useAddPayout(config?: MutationConfig<typeof addPayout>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: addPayout,
    onSuccess: (...args) => {
      void queryClient.invalidateQueries({ queryKey: settlementQueryKey });
      config?.onSuccess?.(...args);
    },
  });
}
