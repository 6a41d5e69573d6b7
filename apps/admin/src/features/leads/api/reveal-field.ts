import type { AdminRevealData, RevealField } from '@lm/shared/schemas/admin-leads';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';

export interface RevealInput {
  userId: number;
  field: RevealField;
  reason: string;
}

/**
 * POST /api/admin/users/:id/reveal — the clear value of one field. The reason is audit-logged; the
 * value is kept only in the component that asked (never in the query cache).
 */
export function revealField({ userId, field, reason }: RevealInput): Promise<AdminRevealData> {
  return api.post<AdminRevealData>(`/api/admin/users/${encodeURIComponent(userId)}/reveal`, {
    field,
    reason,
  });
}

export function useRevealField(config?: MutationConfig<typeof revealField>) {
  return useMutation({ ...config, mutationFn: revealField, gcTime: 0 });
}
