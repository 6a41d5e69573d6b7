/**
 * Credit-information calls (spec §7): GET /api/app/userInfo/baseDetail and POST
 * /api/app/userInfo/baseTempSave. Shapes: creditInfoData, creditInfoPatchBody and baseTempSaveData of
 * @lm/shared/schemas/credit-info (types only here: the browser bundle does not carry zod).
 */
import type { CreditFormStep } from '@lm/shared/credit-info';
import type { BaseTempSaveData, CreditInfoData } from '@lm/shared/schemas/credit-info';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { useCreditWizardStore } from './store';

export const CREDIT_INFO_QUERY_KEY = ['credit-info', 'baseDetail'] as const;

/** The person's record in clear (their own, over the authenticated call), face status and step. */
export function fetchBaseDetail(signal?: AbortSignal): Promise<CreditInfoData> {
  return api.get<CreditInfoData>('/api/app/userInfo/baseDetail', signal ? { signal } : undefined);
}

/** Saves part of the record (merged on the server); answers the step after the save. */
export function saveBaseInfo(patch: Record<string, unknown>): Promise<BaseTempSaveData> {
  return api.post<BaseTempSaveData>('/api/app/userInfo/baseTempSave', patch);
}

export function useBaseDetail() {
  return useQuery({
    queryKey: CREDIT_INFO_QUERY_KEY,
    queryFn: ({ signal }) => fetchBaseDetail(signal),
    // Always the stored record when the wizard opens (it may have changed on another device).
    staleTime: 0,
    refetchOnMount: 'always',
  });
}

/** Saves one wizard step; success clears the modified flag and reloads the record (spec §4). */
export function useSaveBaseInfo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ patch }: { step: CreditFormStep; patch: Record<string, unknown> }) => saveBaseInfo(patch),
    onSuccess: async (_answer, { step }) => {
      useCreditWizardStore.getState().saved(step);
      await queryClient.invalidateQueries({ queryKey: CREDIT_INFO_QUERY_KEY });
    },
  });
}
