import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useChannelStore } from '@/features/channel/store';
import { isLoggedIn } from '@/lib/session';

/** The login-as-form page for a channel (spec §4: logged-out people go to /getQuota with the code). */
export function quotaPath(adChannelCode: string | null | undefined): string {
  return adChannelCode ? `/getQuota?adChannelCode=${encodeURIComponent(adChannelCode)}` : '/getQuota';
}

/** Renders `children` for a logged-in person; everyone else goes to /getQuota. */
export function RequireLogin({ children }: { children: ReactNode }) {
  const code = useChannelStore((s) => s.adChannelCode);
  if (!isLoggedIn()) return <Navigate to={quotaPath(code)} replace />;
  return children;
}
