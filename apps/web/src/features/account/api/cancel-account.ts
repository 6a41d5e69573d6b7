import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { knownDevice } from '@/lib/known-device';
import type { MutationConfig } from '@/lib/react-query';

/** POST /api/cancellation */
export function cancelAccount(input: { code: string }): Promise<unknown> {
  // The code may be held by this browser's known device (ADR 055): the server checks that one.
  return api.post<unknown>('/api/cancellation', { code: input.code }, { headers: knownDevice.headers() });
}

export function useCancelAccount(config?: MutationConfig<typeof cancelAccount>) {
  return useMutation({ ...config, mutationFn: cancelAccount });
}
