import type { CreditFormStep } from '@lm/shared/credit-info';
import type { BaseTempSaveData, CreditInfoPatchBody } from '@lm/shared/schemas/credit-info';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { useCreditWizardStore } from '../store';
import { CREDIT_INFO_QUERY_KEY } from './get-base-detail';

export interface SaveBaseInfoInput {
  step: CreditFormStep;
  patch: CreditInfoPatchBody;
}

/**
 * POST /api/app/userInfo/baseTempSave — part of the record (merged on the server); answers the step
 * after the save. Shapes: creditInfoPatchBody and baseTempSaveData of @lm/shared/schemas/credit-info.
 */
export function saveBaseInfo(patch: CreditInfoPatchBody): Promise<BaseTempSaveData> {
  return api.post<BaseTempSaveData, CreditInfoPatchBody>('/api/app/userInfo/baseTempSave', patch);
}

/** Saves one wizard step; success clears the modified flag and reloads the record (spec §4). */
export function useSaveBaseInfo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ patch }: SaveBaseInfoInput) => saveBaseInfo(patch),
    onSuccess: async (_answer, { step }) => {
      useCreditWizardStore.getState().saved(step);
      await queryClient.invalidateQueries({ queryKey: CREDIT_INFO_QUERY_KEY });
    },
  });
}
