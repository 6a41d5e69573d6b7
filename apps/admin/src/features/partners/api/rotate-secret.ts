import type { PartnerSecretData } from '@lm/shared/schemas/admin-catalog';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { partnersQueryKey } from './get-partners';

/** POST /api/admin/partners/:id/rotate-secret — the new secret, shown once. */
export function rotateSecret(input: { id: number }): Promise<PartnerSecretData> {
  return api.post<PartnerSecretData>(`/api/admin/partners/${encodeURIComponent(input.id)}/rotate-secret`);
}

export function useRotateSecret(config?: MutationConfig<typeof rotateSecret>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: rotateSecret,
    onSuccess: (...args) => {
      void queryClient.invalidateQueries({ queryKey: partnersQueryKey });
      config?.onSuccess?.(...args);
    },
  });
}
