import type { AppDownloadManifest } from '@lm/shared/schemas/site';
import { queryOptions, useQuery } from '@tanstack/react-query';

/**
 * The app-download JSON in object storage (spec §7), fetched with a timestamp parameter so no cache
 * answers an old version. A static file, not an API envelope: fetched directly rather than through
 * the API client (which expects `{code,msg,data}`). No credentials are sent (it may be on the CDN).
 */
export async function getDownloadManifest(
  manifestUrl: string,
  now = Date.now(),
  signal?: AbortSignal,
): Promise<AppDownloadManifest> {
  const url = `${manifestUrl}${manifestUrl.includes('?') ? '&' : '?'}t=${now}`;
  const res = await fetch(url, { credentials: 'omit', ...(signal ? { signal } : {}) });
  if (!res.ok) throw new Error(`download JSON answered ${res.status}`);
  const value = (await res.json()) as Partial<AppDownloadManifest> | null;
  if (!value || typeof value !== 'object' || !('android' in value) || !('ios' in value)) {
    throw new Error('download JSON malformed');
  }
  return value as AppDownloadManifest;
}

export const downloadManifestQueryOptions = (manifestUrl: string) =>
  queryOptions({
    queryKey: ['app-version', 'manifest', manifestUrl],
    queryFn: ({ signal }) => getDownloadManifest(manifestUrl, Date.now(), signal),
    staleTime: 5 * 60_000,
  });

export function useDownloadManifest(manifestUrl: string | undefined) {
  return useQuery({ ...downloadManifestQueryOptions(manifestUrl ?? ''), enabled: Boolean(manifestUrl) });
}
