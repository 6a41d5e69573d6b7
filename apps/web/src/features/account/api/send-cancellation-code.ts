import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';

export interface SendCancellationCodeData {
  mobile?: string;
  retryAfter?: number;
  expiresIn?: number;
}

/** POST /api/cancellation/sendPhoneVerifyCode — the code goes to the logged-in user's phone. */
export function sendCancellationCode(): Promise<SendCancellationCodeData | null> {
  return api.post<SendCancellationCodeData | null>('/api/cancellation/sendPhoneVerifyCode');
}

export function useSendCancellationCode(config?: MutationConfig<typeof sendCancellationCode>) {
  return useMutation({ ...config, mutationFn: sendCancellationCode });
}
