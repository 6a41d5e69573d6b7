import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { knownDevice } from '@/lib/known-device';
import type { MutationConfig } from '@/lib/react-query';

export interface SendCancellationCodeData {
  mobile?: string;
  retryAfter?: number;
  expiresIn?: number;
}

/**
 * POST /api/cancellation/sendPhoneVerifyCode — the code goes to the logged-in user's phone; with this browser's
 * known device (ADR 055) it is counted in the device's own budget.
 */
export function sendCancellationCode(): Promise<SendCancellationCodeData | null> {
  return api.post<SendCancellationCodeData | null>('/api/cancellation/sendPhoneVerifyCode', undefined, {
    headers: knownDevice.headers(),
  });
}

export function useSendCancellationCode(config?: MutationConfig<typeof sendCancellationCode>) {
  return useMutation({ ...config, mutationFn: sendCancellationCode });
}
