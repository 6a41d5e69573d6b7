import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { staffQueryKey } from './get-staff';

/** POST /api/admin/staff/:id/reset-password — the given password, or a generated one returned once. */
export function resetStaffPassword(input: { id: number; password?: string | undefined }): Promise<{
  password: string | null;
}> {
  return api.post<{ password: string | null }>(`/api/admin/staff/${input.id}/reset-password`, {
    ...(input.password ? { password: input.password } : {}),
  });
}

export function useResetStaffPassword(config?: MutationConfig<typeof resetStaffPassword>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: resetStaffPassword,
    onSuccess: (...args) => {
      void queryClient.invalidateQueries({ queryKey: staffQueryKey });
      config?.onSuccess?.(...args);
    },
  });
}
