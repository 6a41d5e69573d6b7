import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** The agreement text a consent recorded (protocolData of @lm/shared/schemas/matching). */
export interface ConsentedText {
  id: string;
  title: string;
  version: string;
  content: string;
  /** SHA-256 (hex) of `content`. */
  textHash: string;
  consentedAt: string | null;
}

/** GET /api/user/info/protocol2/getContent?consentId — exactly the text the person agreed to. */
export function getConsentedText(consentId: number, signal?: AbortSignal): Promise<ConsentedText> {
  return api.get<ConsentedText>('/api/user/info/protocol2/getContent', {
    params: { consentId },
    signal,
    silent: true,
    cancelPrevious: false,
  });
}

export const consentedTextQueryOptions = (consentId: number) =>
  queryOptions({
    queryKey: ['account', 'consented-text', consentId],
    queryFn: ({ signal }) => getConsentedText(consentId, signal),
    // The text of a given consent never changes.
    staleTime: Number.POSITIVE_INFINITY,
  });

export function useConsentedText(consentId: number | null) {
  return useQuery({ ...consentedTextQueryOptions(consentId ?? 0), enabled: consentId !== null });
}
