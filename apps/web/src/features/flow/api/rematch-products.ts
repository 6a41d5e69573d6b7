import { api } from '@/lib/api-client';
import type { MatchResult } from '../decide';

/**
 * Re-match type (spec §3 "Re-match type: 0 old user, 1 big union, 2 city, 3 second match"), sent as
 * directMatchType of POST /api/user/info/direct/match.
 */
export const DirectMatchType = { OLD_USER: 0, BIG_UNION: 1, CITY: 2, SECOND_MATCH: 3 } as const;

/** POST /api/user/info/direct/match: re-match an old user's products (silent). */
export function rematchProducts(
  adChannelCode: string,
  directMatchType: number = DirectMatchType.OLD_USER,
): Promise<MatchResult | null> {
  return api.post<MatchResult | null>(
    '/api/user/info/direct/match',
    { adChannelCode, directMatchType },
    { silent: true },
  );
}
