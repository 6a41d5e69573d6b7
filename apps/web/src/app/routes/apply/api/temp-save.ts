import type { ApplicationDraft, TempSaveData } from '@lm/shared/schemas/application';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/**
 * POST /api/user/info/tempSave — part of the form draft (merged on the server). Shapes: tempSaveData
 * of @lm/shared/schemas/application (types only here).
 */
export function tempSave(patch: ApplicationDraft): Promise<TempSaveData> {
  return api.post<TempSaveData, ApplicationDraft>('/api/user/info/tempSave', patch, {
    cancelPrevious: false,
  });
}

export function useTempSave() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: tempSave,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['apply', 'draft'] }),
  });
}
