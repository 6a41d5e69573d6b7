import type { StaffListItem } from '@lm/shared/schemas/auth';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { staffQueryKey } from './get-staff';

/** PUT /api/admin/staff/:id/status — disabling also ends the account's sessions. */
export function setStaffStatus(input: { id: number; status: 'active' | 'disabled' }): Promise<StaffListItem> {
  return api.put<StaffListItem>(`/api/admin/staff/${input.id}/status`, { status: input.status });
}

export function useSetStaffStatus(config?: MutationConfig<typeof setStaffStatus>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: setStaffStatus,
    onSuccess: (...args) => {
      void queryClient.invalidateQueries({ queryKey: staffQueryKey });
      config?.onSuccess?.(...args);
    },
  });
}
