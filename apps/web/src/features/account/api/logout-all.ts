import type { LogoutAllResult } from '@lm/shared/schemas/privacy';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';

/** POST /api/user/sessions/logout-all — ends every session of the account, this one included. */
export function logoutAll(): Promise<LogoutAllResult> {
  return api.post<LogoutAllResult>('/api/user/sessions/logout-all');
}

export function useLogoutAll(config?: MutationConfig<typeof logoutAll>) {
  return useMutation({ ...config, mutationFn: logoutAll });
}
