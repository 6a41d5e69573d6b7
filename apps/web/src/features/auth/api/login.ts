import type { LoginBody } from '@lm/shared/schemas/auth';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
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
}

/** POST /api/login */
export function login(input: LoginInput): Promise<LoginData> {
  return api.post<LoginData, LoginBody>('/api/login', { ...input }, { skipAuth: true });
}

export function useLogin(config?: MutationConfig<typeof login>) {
  return useMutation({ ...config, mutationFn: login });
}
