import { useCallback, useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { NAVIGATION_DELAY_MS } from '@/config/constants';
import { toast } from '@/lib/toast';

/**
 * Navigation the spec's way (§2, §9): after a short delay, clearing any toast first. Pending
 * navigations are dropped when the page unmounts.
 */
export function useDelayedNavigate() {
  const navigate = useNavigate();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return useCallback(
    (to: string, options?: { replace?: boolean; delayMs?: number }) => {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        toast.clear();
        navigate(to, { replace: options?.replace ?? false });
      }, options?.delayMs ?? NAVIGATION_DELAY_MS);
    },
    [navigate],
  );
}
