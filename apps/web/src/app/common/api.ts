/**
 * Calls made by pages whose server side arrives with later issues (spec §7). Until then the server
 * answers 404 and the api-client shows its message.
 */
import { api } from '@/lib/api-client';

/** POST /api/user/info/save — the whole form draft; answers the match result. */
export function saveUserInfo(draft: Record<string, unknown>): Promise<unknown> {
  return api.post<unknown>('/api/user/info/save', draft);
}

/** POST /api/user/info/identityNameVerify — name + national ID. */
export function verifyIdentityName(input: { realName: string; identity: string }): Promise<unknown> {
  return api.post<unknown>('/api/user/info/identityNameVerify', input);
}

/** PUT /api/user/info/auth — consent per lender. */
export function authorizeProducts(input: { productIds: string[]; adChannelCode?: string }): Promise<unknown> {
  return api.put<unknown>('/api/user/info/auth', input);
}

/** POST /api/app/userInfo/baseTempSave — credit information. */
export function saveCreditInfo(info: Record<string, unknown>): Promise<unknown> {
  return api.post<unknown>('/api/app/userInfo/baseTempSave', info);
}

/** GET /api/common/upload/policy — signed upload policy for a folder. */
export function getUploadPolicy(params: { image: string; isPrivate: boolean }): Promise<unknown> {
  return api.get<unknown>('/api/common/upload/policy', { params });
}

export interface StaffLoginData {
  token: string;
}

/** POST /api/crm/admin/login — staff phone + password. */
export function staffLogin(input: { phone: string; password: string }): Promise<StaffLoginData> {
  return api.post<StaffLoginData>('/api/crm/admin/login', input, { skipAuth: true });
}
