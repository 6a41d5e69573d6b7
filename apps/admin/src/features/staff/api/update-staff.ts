import type { StaffListItem } from '@lm/shared/schemas/auth';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { type StaffRole, staffQueryKey } from './get-staff';

export interface UpdateStaffInput {
  id: number;
  name?: string;
  role?: StaffRole;
  channelCodes?: string[];
}

/** PUT /api/admin/staff/:id — name, role, channels. */
export function updateStaff({ id, ...body }: UpdateStaffInput): Promise<StaffListItem> {
  return api.put<StaffListItem>(`/api/admin/staff/${id}`, { ...body });
}

export function useUpdateStaff(config?: MutationConfig<typeof updateStaff>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: updateStaff,
    onSuccess: (...args) => {
      void queryClient.invalidateQueries({ queryKey: staffQueryKey });
      config?.onSuccess?.(...args);
    },
  });
}
