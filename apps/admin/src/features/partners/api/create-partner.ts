import type { PartnerCreateBody, PartnerSecretData } from '@lm/shared/schemas/admin-catalog';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { partnersQueryKey } from './get-partners';

/** POST /api/admin/partners — answers the new signing secret once. */
export function createPartner(input: PartnerCreateBody): Promise<PartnerSecretData> {
  return api.post<PartnerSecretData>('/api/admin/partners', { ...input });
}

export function useCreatePartner(config?: MutationConfig<typeof createPartner>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: createPartner,
    onSuccess: (...args) => {
      void queryClient.invalidateQueries({ queryKey: partnersQueryKey });
      config?.onSuccess?.(...args);
    },
  });
}
