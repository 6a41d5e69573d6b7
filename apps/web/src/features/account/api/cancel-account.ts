import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';

/** POST /api/cancellation */
export function cancelAccount(input: { code: string }): Promise<unknown> {
  return api.post<unknown>('/api/cancellation', { code: input.code });
}

export function useCancelAccount(config?: MutationConfig<typeof cancelAccount>) {
  return useMutation({ ...config, mutationFn: cancelAccount });
}
