import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';

export interface LoginInput {
  phone: string;
  code: string;
  adChannelCode?: string;
  abTestType: number;
  /** True when the login happens on the getQuota (login-as-form-request) page. */
  isFormReq: boolean;
}

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
  return api.post<LoginData>('/api/login', { ...input }, { skipAuth: true });
}

export function useLogin(config?: MutationConfig<typeof login>) {
  return useMutation({ ...config, mutationFn: login });
}
