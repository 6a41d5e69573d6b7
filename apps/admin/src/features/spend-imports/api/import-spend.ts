import type { SpendFileBody, SpendImportResult } from '@lm/shared/schemas/spend-imports';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { spendImportsQueryKey } from './get-spend-imports';

/**
 * POST /api/admin/spend-imports (admin, operator) — the accepted rows booked as channel cost (the difference to
 * what is booked per channel-day); the same file again answers `repeated` and books nothing.
 */
export function importSpend(body: SpendFileBody): Promise<SpendImportResult> {
  return api.post<SpendImportResult>('/api/admin/spend-imports', { ...body }, { silent: true });
}

export function useImportSpend(config?: MutationConfig<typeof importSpend>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: importSpend,
    onSuccess: (...args) => {
      void queryClient.invalidateQueries({ queryKey: spendImportsQueryKey });
      config?.onSuccess?.(...args);
    },
  });
}
