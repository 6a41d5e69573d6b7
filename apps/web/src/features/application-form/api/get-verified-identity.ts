import type { VerifiedIdentityData } from '@lm/shared/schemas/application';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { getToken } from '@/lib/session';

/** GET /api/user/info/verifiedIdentity — the name and the masked ID number a passed face check was made with. */
export function fetchVerifiedIdentity(signal?: AbortSignal): Promise<VerifiedIdentityData> {
  return api.get<VerifiedIdentityData>('/api/user/info/verifiedIdentity', {
    silent: true,
    ...(signal ? { signal } : {}),
  });
}

/** The identity part of the application form (issue 16.1). */
export type IdentityState =
  /** Still asking the server: the fields are shown disabled. */
  | { status: 'loading' }
  /** Verified: shown read-only, left out of the save (the server uses the verified identity). */
  | { status: 'verified'; realName: string; identity: string }
  /** Not verified (or not logged in, or the call failed): the person types them. */
  | { status: 'none' };

export function identityStateOf(
  query: { isPending: boolean; data?: VerifiedIdentityData | undefined },
  enabled: boolean,
): IdentityState {
  if (!enabled) return { status: 'none' };
  if (query.isPending) return { status: 'loading' };
  const d = query.data;
  if (d?.verified && d.realName && d.identity) {
    return { status: 'verified', realName: d.realName, identity: d.identity };
  }
  return { status: 'none' };
}

/** The logged-in person's verified identity, asked afresh on every form (it is set by the face check). */
export function useVerifiedIdentity(): IdentityState {
  const token = getToken();
  const query = useQuery({
    queryKey: ['verified-identity', token],
    queryFn: ({ signal }) => fetchVerifiedIdentity(signal),
    enabled: Boolean(token),
    staleTime: 0,
    retry: false,
  });
  return identityStateOf(query, Boolean(token));
}
