import type { CreateStaffBody, StaffListItem } from '@lm/shared/schemas/auth';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { staffQueryKey } from './get-staff';

export type CreateStaffInput = CreateStaffBody;

/** POST /api/admin/staff — a staff or channel-partner account. */
export function createStaff(input: CreateStaffInput): Promise<StaffListItem> {
  return api.post<StaffListItem, CreateStaffBody>('/api/admin/staff', { ...input });
}

export function useCreateStaff(config?: MutationConfig<typeof createStaff>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: createStaff,
    onSuccess: (...args) => {
      void queryClient.invalidateQueries({ queryKey: staffQueryKey });
      config?.onSuccess?.(...args);
    },
  });
}
