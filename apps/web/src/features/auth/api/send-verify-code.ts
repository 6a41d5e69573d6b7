import type { SendPhoneVerifyCodeBody } from '@lm/shared/schemas/auth';
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

/** Whom to send the code to: a typed phone, or the ticket of an encrypted-phone link. */
export type PhoneCarrier = { phone: string } | { encryptionMobile: string };

/** POST /api/login/sendPhoneVerifyCode */
export function sendVerifyCode(carrier: PhoneCarrier): Promise<SendVerifyCodeData> {
  return api.post<SendVerifyCodeData, SendPhoneVerifyCodeBody>(
    '/api/login/sendPhoneVerifyCode',
    { ...carrier },
    { skipAuth: true },
  );
}

export function useSendVerifyCode(config?: MutationConfig<typeof sendVerifyCode>) {
  return useMutation({ ...config, mutationFn: sendVerifyCode });
}
