import type { ReconcileBody, ReconcileData } from '@lm/shared/schemas/reconcile';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';

/**
 * POST /api/admin/partners/:id/outcomes/reconcile — the lender's CSV (as text) against its reports: totals and
 * the disagreements. Writes nothing but an audit entry.
 */
export function reconcilePartnerOutcomes(input: { id: number; body: ReconcileBody }): Promise<ReconcileData> {
  return api.post<ReconcileData>(
    `/api/admin/partners/${encodeURIComponent(input.id)}/outcomes/reconcile`,
    {
      ...input.body,
    },
    // The card shows the refusal (why the file cannot be read) beside the file.
    { silent: true },
  );
}

export function useReconcilePartnerOutcomes(config?: MutationConfig<typeof reconcilePartnerOutcomes>) {
  return useMutation({ ...config, mutationFn: reconcilePartnerOutcomes });
}
