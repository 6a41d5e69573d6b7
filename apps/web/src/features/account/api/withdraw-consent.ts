import type { DataSharingEntry, DataSharingList, WithdrawConsentBody } from '@lm/shared/schemas/privacy';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { dataSharingQueryKey } from './get-data-sharing';

/** POST /api/user/data-sharing/withdraw {partnerId} — withdraws every consent to that lender; answers the updated entry. */
export function withdrawConsent(input: WithdrawConsentBody): Promise<DataSharingEntry> {
  return api.post<DataSharingEntry, WithdrawConsentBody>('/api/user/data-sharing/withdraw', {
    partnerId: input.partnerId,
  });
}

export function useWithdrawConsent(config?: MutationConfig<typeof withdrawConsent>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: withdrawConsent,
    onSuccess: (entry, ...rest) => {
      queryClient.setQueryData<DataSharingList>(dataSharingQueryKey, (old) =>
        old
          ? { list: old.list.map((e) => (e.partnerId === entry.partnerId ? entry : e)) }
          : { list: [entry] },
      );
      // Consents and deliveries in the application record changed too.
      void queryClient.invalidateQueries({ queryKey: ['account', 'applications'] });
      config?.onSuccess?.(entry, ...rest);
    },
  });
}
