import type { LoginBody } from '@lm/shared/schemas/auth';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { knownDevice } from '@/lib/known-device';
import type { MutationConfig } from '@/lib/react-query';
import type { PhoneCarrier } from './send-verify-code';

export type LoginInput = PhoneCarrier & {
  code: string;
  adChannelCode?: string;
  /** The channel's skin number (spec §3). */
  abTestType: number;
  /** True when the login happens on a page whose path contains getQuota (login-as-form-request). */
  isFormReq: boolean;
};

export interface LoginData {
  token: string;
  loginUser: {
    uid: number;
    userInfoStatus: number;
    coverStatus: number;
  };
  /** This device's token (ADR 055): kept for the next send-code and login calls. */
  knownDevice?: string;
}

/** POST /api/login */
export async function login(input: LoginInput): Promise<LoginData> {
  const data = await api.post<LoginData, LoginBody>(
    '/api/login',
    { ...input },
    { skipAuth: true, headers: knownDevice.headers() },
  );
  knownDevice.set(data.knownDevice);
  return data;
}

export function useLogin(config?: MutationConfig<typeof login>) {
  return useMutation({ ...config, mutationFn: login });
}
