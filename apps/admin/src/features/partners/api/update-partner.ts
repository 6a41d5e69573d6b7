import type { PartnerItem, PartnerUpdateBody } from '@lm/shared/schemas/admin-catalog';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { partnersQueryKey } from './get-partners';

/** PUT /api/admin/partners/:id (contact phone left out: the stored one is kept). */
export function updatePartner(input: { id: number; body: PartnerUpdateBody }): Promise<PartnerItem> {
  return api.put<PartnerItem>(`/api/admin/partners/${encodeURIComponent(input.id)}`, { ...input.body });
}

export function useUpdatePartner(config?: MutationConfig<typeof updatePartner>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: updatePartner,
    onSuccess: (...args) => {
      void queryClient.invalidateQueries({ queryKey: partnersQueryKey });
      config?.onSuccess?.(...args);
    },
  });
}
