import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';

export interface SendVerifyCodeData {
  /** Masked phone the code went to. */
  mobile: string;
  /** Seconds before another code may be requested. */
  retryAfter: number;
  /** Seconds the code stays valid. */
  expiresIn: number;
}

/** POST /api/login/sendPhoneVerifyCode */
export function sendVerifyCode(phone: string): Promise<SendVerifyCodeData> {
  return api.post<SendVerifyCodeData>('/api/login/sendPhoneVerifyCode', { phone }, { skipAuth: true });
}

export function useSendVerifyCode(config?: MutationConfig<typeof sendVerifyCode>) {
  return useMutation({ ...config, mutationFn: sendVerifyCode });
}
