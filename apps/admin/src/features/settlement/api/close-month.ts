import type { MonthCloseData } from '@lm/shared/schemas/settlement';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { settlementQueryKey } from './get-statements';

/** POST /api/admin/settlement/months/:month/close (admin) — freezes a month that has ended. */
export function closeMonth(month: string): Promise<MonthCloseData> {
  return api.post<MonthCloseData>(`/api/admin/settlement/months/${encodeURIComponent(month)}/close`, {});
}

export function useCloseMonth(config?: MutationConfig<typeof closeMonth>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: closeMonth,
    onSuccess: (...args) => {
      void queryClient.invalidateQueries({ queryKey: settlementQueryKey });
      config?.onSuccess?.(...args);
    },
  });
}
