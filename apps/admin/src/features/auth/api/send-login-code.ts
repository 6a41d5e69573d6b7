import { CHALLENGE_QUIET, withChallenge } from '@lm/shared/client/challenge';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { knownDevice } from '@/lib/known-device';
import { notifyError } from '@/lib/notify';
import type { MutationConfig } from '@/lib/react-query';

export interface SendLoginCodeData {
  mobile?: string;
  retryAfter?: number;
  expiresIn?: number;
}

/**
 * POST /api/crm/admin/login/sendPhoneVerifyCode with this browser's known device (ADR 055); a 1008 challenge is
 * solved silently (`onSolving` shows "正在进行安全验证…") and the request sent again.
 */
export function sendLoginCode(
  phone: string,
  onSolving?: (solving: boolean) => void,
): Promise<SendLoginCodeData | null> {
  return withChallenge(
    (altcha) =>
      api.post<SendLoginCodeData | null>(
        '/api/crm/admin/login/sendPhoneVerifyCode',
        { phone, ...(altcha ? { altcha } : {}) },
        { skipAuth: true, quiet: CHALLENGE_QUIET, headers: knownDevice.headers() },
      ),
    { ...(onSolving ? { onSolving } : {}), showError: notifyError },
  );
}

export function useSendLoginCode(
  onSolving?: (solving: boolean) => void,
  config?: MutationConfig<typeof sendLoginCode>,
) {
  return useMutation({ ...config, mutationFn: (phone: string) => sendLoginCode(phone, onSolving) });
}
