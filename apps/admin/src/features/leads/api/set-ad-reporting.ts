import type { AdminAdReportingData } from '@lm/shared/schemas/admin-leads';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { userQueryOptions } from './get-user';

export interface SetAdReportingInput {
  userId: number;
  /** true: the person objected to conversion reporting (隐私政策 第六条); false: the objection is withdrawn. */
  objected: boolean;
}

/**
 * PUT /api/admin/users/:id/ad-reporting — records or withdraws a person's objection to conversion reporting.
 * Objecting also drops their pending reports and unlinks their ad clicks; audit-logged.
 */
export function setAdReporting({ userId, objected }: SetAdReportingInput): Promise<AdminAdReportingData> {
  return api.put<AdminAdReportingData>(`/api/admin/users/${encodeURIComponent(userId)}/ad-reporting`, {
    objected,
  });
}

export function useSetAdReporting(config?: MutationConfig<typeof setAdReporting>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: setAdReporting,
    onSuccess: (...args) => {
      void queryClient.invalidateQueries({ queryKey: userQueryOptions(args[1].userId).queryKey });
      config?.onSuccess?.(...args);
    },
  });
}
