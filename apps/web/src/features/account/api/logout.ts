import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api } from '@/lib/api-client';
import { loadDialog } from '@/lib/dialog';
import type { MutationConfig } from '@/lib/react-query';
import { clearSession } from '@/lib/session';

/** POST /api/logout */
export function logout(): Promise<unknown> {
  // Silent: whatever the server says, the person is logged out locally afterwards.
  return api.post<unknown>('/api/logout', undefined, { silent: true });
}

export function useLogout(config?: MutationConfig<typeof logout>) {
  return useMutation({ ...config, mutationFn: logout });
}

/** The 退出登录 button's action: asks first, then logs out here whatever the server says, and goes to /login. */
export function useConfirmLogout() {
  const navigate = useNavigate();
  const mutation = useLogout();
  const confirmLogout = async () => {
    const Dialog = await loadDialog();
    const confirmed = await Dialog.confirm({ content: '确定要退出登录吗？' });
    if (!confirmed) return;
    mutation.mutate(undefined, {
      onSettled: () => {
        clearSession();
        navigate('/login', { replace: true });
      },
    });
  };
  return { confirmLogout, pending: mutation.isPending };
}
