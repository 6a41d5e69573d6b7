import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { setAdminToken } from '@/lib/auth';
import { knownDevice } from '@/lib/known-device';
import type { MutationConfig } from '@/lib/react-query';
import { meQueryKey } from './get-me';
import type { Staff } from './types';

export type StaffLoginInput = { phone: string; password: string } | { phone: string; code: string };

export interface StaffLoginData {
  token: string;
  staff: Staff;
  /** This device's token (ADR 055): kept for the next send-code and login calls. */
  knownDevice?: string;
}

/** POST /api/crm/admin/login — phone + password, or phone + SMS code. */
export async function staffLogin(input: StaffLoginInput): Promise<StaffLoginData> {
  const data = await api.post<StaffLoginData>(
    '/api/crm/admin/login',
    { ...input },
    { skipAuth: true, headers: knownDevice.headers() },
  );
  knownDevice.set(data.knownDevice);
  return data;
}

export function useStaffLogin(config?: MutationConfig<typeof staffLogin>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: staffLogin,
    onSuccess: (data, ...rest) => {
      setAdminToken(data.token);
      queryClient.setQueryData(meQueryKey, data.staff);
      return config?.onSuccess?.(data, ...rest);
    },
  });
}
