import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useChannelStore } from '@/lib/channel/store';
import { loginPathFor } from '@/lib/return-to';
import { isLoggedIn } from '@/lib/session';

/**
 * The login-as-form page for a channel (spec §4: logged-out people go to /getQuota with the code);
 * with `returnTo` (an internal path) the login comes back there (issue 16.4).
 */
export function quotaPath(adChannelCode: string | null | undefined, returnTo?: string | null): string {
  return loginPathFor(adChannelCode, returnTo);
}

/**
 * Renders `children` for a logged-in person; everyone else goes to /getQuota first and, logged in,
 * comes back to this page (issue 16.4).
 */
export function RequireLogin({ children }: { children: ReactNode }) {
  const code = useChannelStore((s) => s.adChannelCode);
  const { pathname, search, hash } = useLocation();
  if (!isLoggedIn()) return <Navigate to={quotaPath(code, `${pathname}${search}${hash}`)} replace />;
  return children;
}
