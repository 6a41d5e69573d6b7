import { useMe } from './api/get-me';

/** Whether the signed-in staff may change catalog records (admin, operator). */
export function useCanEdit(): boolean {
  const me = useMe();
  return me.data?.role === 'admin' || me.data?.role === 'operator';
}
