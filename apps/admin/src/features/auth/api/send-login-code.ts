import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';

export interface SendLoginCodeData {
  mobile?: string;
  retryAfter?: number;
  expiresIn?: number;
}

/** POST /api/crm/admin/login/sendPhoneVerifyCode */
export function sendLoginCode(phone: string): Promise<SendLoginCodeData | null> {
  return api.post<SendLoginCodeData | null>(
    '/api/crm/admin/login/sendPhoneVerifyCode',
    { phone },
    { skipAuth: true },
  );
}

export function useSendLoginCode(config?: MutationConfig<typeof sendLoginCode>) {
  return useMutation({ ...config, mutationFn: sendLoginCode });
}
