import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { clearAdminToken } from '@/lib/auth';
import type { MutationConfig } from '@/lib/react-query';

/** POST /api/crm/admin/logout */
export function staffLogout(): Promise<unknown> {
  return api.post<unknown>('/api/crm/admin/logout', undefined, { silent: true });
}

/** Logs out on the server, then always forgets the token and the cached data locally. */
export function useStaffLogout(config?: MutationConfig<typeof staffLogout>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: staffLogout,
    onSettled: (...args) => {
      clearAdminToken();
      queryClient.clear();
      return config?.onSettled?.(...args);
    },
  });
}
