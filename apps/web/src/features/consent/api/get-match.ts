import type { MatchResultData } from '@lm/shared/schemas/matching';
import { api } from '@/lib/api-client';

/**
 * GET /api/user/info/match/{matchKey} — a match of the signed-in person by its key (issue 16.8: links
 * carry the key, never the result); rejects (404) for anyone else's.
 */
export function fetchMatch(matchKey: string, signal?: AbortSignal): Promise<MatchResultData> {
  return api.get<MatchResultData>(`/api/user/info/match/${encodeURIComponent(matchKey)}`, {
    silent: true,
    ...(signal ? { signal } : {}),
  });
}
