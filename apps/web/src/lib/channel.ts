import { STORAGE_KEYS } from '@/config/constants';
import { type KeyValueStore, storage } from './storage';

/** Query keys that may carry the advertising channel code, in order of preference (spec §3). */
export const CHANNEL_QUERY_KEYS = ['adChannelCode', 'source', 'apiChannelCode'] as const;

/** The channel code a query carries: the first non-blank of adChannelCode, source, apiChannelCode. */
export function pickChannelCode(query: URLSearchParams): string | undefined {
  for (const key of CHANNEL_QUERY_KEYS) {
    const value = query.get(key)?.trim();
    if (value) return value;
  }
  return undefined;
}

export function getStoredChannelCode(store: KeyValueStore = storage): string | undefined {
  return store.get(STORAGE_KEYS.adChannelCode) || undefined;
}

export function setStoredChannelCode(code: string, store: KeyValueStore = storage): void {
  store.set(STORAGE_KEYS.adChannelCode, code);
}

/**
 * The advertising channel code: from the current query (then remembered in localStorage
 * `ad_channel_code`), otherwise the remembered one. Prefer `useChannelStore` (it also knows codes
 * exchanged from an adRouteCode); this is for code that runs before the channel bootstrap.
 */
export function getAdChannelCode(search: string = window.location.search): string | undefined {
  const code = pickChannelCode(new URLSearchParams(search));
  if (code) {
    setStoredChannelCode(code);
    return code;
  }
  return getStoredChannelCode();
}
