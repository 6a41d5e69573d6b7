import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';

/** POST /api/logout */
export function logout(): Promise<unknown> {
  // Silent: whatever the server says, the person is logged out locally afterwards.
  return api.post<unknown>('/api/logout', undefined, { silent: true });
}

export function useLogout(config?: MutationConfig<typeof logout>) {
  return useMutation({ ...config, mutationFn: logout });
}
