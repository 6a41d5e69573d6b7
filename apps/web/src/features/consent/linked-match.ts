/**
 * The match a page's link names (issue 16.8). Our own links carry the run's opaque `matchKey` only;
 * the page takes the tab's stored match when it is that run, else loads it (GET
 * /api/user/info/match/{matchKey}: the signed-in person's own runs only). A partner's or an older
 * link may still carry the whole result as `rqResult` (spec §2 field names): that keeps working.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { fetchMatch } from './api/get-match';
import { parseMatch, readStoredMatch, storeMatch } from './matched-products';
import type { QueryOptions } from './query-options';

const MATCH_KEY = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)+$/;

/** The link's match key, when it looks like one. */
export function matchKeyOption(options: QueryOptions): string | null {
  const key = typeof options.matchKey === 'string' ? options.matchKey.trim() : '';
  return key.length >= 20 && key.length <= 200 && MATCH_KEY.test(key) ? key : null;
}

/** The stored match when it is the run `key` names. */
function storedRun(key: string | null, sessionKey: string): unknown {
  if (!key) return null;
  const stored = readStoredMatch(sessionKey);
  return parseMatch(stored).matchKey === key ? stored : null;
}

/**
 * The link's match result: the run its `matchKey` names (kept as `sessionKey` once loaded), else its
 * `rqResult` as it is; null when the link names none or the key's run cannot be read (another person's, expired session, offline): the page then shows the stored match.
 */
export async function loadLinkedMatch(options: QueryOptions, sessionKey: string): Promise<unknown> {
  const key = matchKeyOption(options);
  if (!key) return options.rqResult ?? null;
  const stored = storedRun(key, sessionKey);
  if (stored) return stored;
  try {
    const loaded = await fetchMatch(key);
    storeMatch(sessionKey, loaded);
    return loaded;
  } catch {
    return null;
  }
}

/** `loadLinkedMatch` for a page: `loading` while the key's match is being read. */
export function useLinkedMatch(
  options: QueryOptions,
  sessionKey: string,
): { result: unknown; loading: boolean } {
  const key = matchKeyOption(options);
  const stored = useMemo(() => storedRun(key, sessionKey), [key, sessionKey]);
  const query = useQuery({
    queryKey: ['match', key],
    queryFn: ({ signal }) => fetchMatch(key!, signal),
    enabled: key !== null && stored === null,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  useEffect(() => {
    if (query.data) storeMatch(sessionKey, query.data);
  }, [query.data, sessionKey]);
  if (!key) return { result: options.rqResult ?? null, loading: false };
  if (stored) return { result: stored, loading: false };
  return { result: query.data ?? null, loading: query.isPending };
}
