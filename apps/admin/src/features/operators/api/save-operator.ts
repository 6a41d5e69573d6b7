import type { CreateOperatorBody, OperatorDetail, OperatorFieldsInput } from '@lm/shared/schemas/operators';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { operatorsQueryKey } from './get-operators';

/** POST /api/admin/operators */
export function createOperator(input: CreateOperatorBody): Promise<OperatorDetail> {
  return api.post<OperatorDetail>('/api/admin/operators', { ...input });
}

/** PUT /api/admin/operators/:id — the whole record (the code stays). */
export function updateOperator(input: { id: number; body: OperatorFieldsInput }): Promise<OperatorDetail> {
  return api.put<OperatorDetail>(`/api/admin/operators/${encodeURIComponent(input.id)}`, { ...input.body });
}

export function useCreateOperator(config?: MutationConfig<typeof createOperator>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: createOperator,
    onSuccess: (...args) => {
      void queryClient.invalidateQueries({ queryKey: operatorsQueryKey });
      config?.onSuccess?.(...args);
    },
  });
}

export function useUpdateOperator(config?: MutationConfig<typeof updateOperator>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: updateOperator,
    onSuccess: (...args) => {
      void queryClient.invalidateQueries({ queryKey: operatorsQueryKey });
      config?.onSuccess?.(...args);
    },
  });
}
