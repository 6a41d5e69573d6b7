import { CHALLENGE_QUIET, withChallenge } from '@lm/shared/client/challenge';
import type { SendPhoneVerifyCodeBody } from '@lm/shared/schemas/auth';
import { useMutation } from '@tanstack/react-query';
import { api, ERROR_TOAST_MS } from '@/lib/api-client';
import { knownDevice } from '@/lib/known-device';
import type { MutationConfig } from '@/lib/react-query';
import { toast } from '@/lib/toast';

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

/**
 * POST /api/login/sendPhoneVerifyCode, with this browser's known device (ADR 055). Under pressure the server asks
 * for a proof-of-work challenge (1008): solved here, silently (`onSolving` shows "正在进行安全验证…"), and sent again.
 */
export function sendVerifyCode(
  carrier: PhoneCarrier,
  onSolving?: (solving: boolean) => void,
): Promise<SendVerifyCodeData> {
  return withChallenge(
    (altcha) =>
      api.post<SendVerifyCodeData, SendPhoneVerifyCodeBody>(
        '/api/login/sendPhoneVerifyCode',
        { ...carrier, ...(altcha ? { altcha } : {}) },
        { skipAuth: true, quiet: CHALLENGE_QUIET, headers: knownDevice.headers() },
      ),
    {
      ...(onSolving ? { onSolving } : {}),
      showError: (msg) => toast.show({ content: msg, duration: ERROR_TOAST_MS }),
    },
  );
}

export function useSendVerifyCode(
  onSolving?: (solving: boolean) => void,
  config?: MutationConfig<typeof sendVerifyCode>,
) {
  return useMutation({
    ...config,
    mutationFn: (carrier: PhoneCarrier) => sendVerifyCode(carrier, onSolving),
  });
}
