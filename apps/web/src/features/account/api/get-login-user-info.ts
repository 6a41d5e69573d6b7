import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface LoginUserInfo {
  uid: number;
  /** Masked by the server. */
  mobile: string;
  adChannelCode: string | null;
  adChannelId: number | null;
  userInfoStatus: number;
  coverStatus: number;
  createdAt: string;
}

/** GET /api/getLoginUserInfo */
export function getLoginUserInfo(signal?: AbortSignal): Promise<LoginUserInfo> {
  return api.get<LoginUserInfo>('/api/getLoginUserInfo', { signal });
}

export const loginUserInfoQueryOptions = () =>
  queryOptions({
    queryKey: ['login-user-info'],
    queryFn: ({ signal }) => getLoginUserInfo(signal),
  });

export function useLoginUserInfo() {
  return useQuery(loginUserInfoQueryOptions());
}
