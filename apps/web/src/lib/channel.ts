import { STORAGE_KEYS } from '@/config/constants';
import { storage } from './storage';

/** Query keys that may carry the advertising channel code, in order of preference (spec §3). */
const CHANNEL_QUERY_KEYS = ['adChannelCode', 'source', 'apiChannelCode'] as const;

/**
 * The advertising channel code: from the current query (then remembered in localStorage
 * `ad_channel_code`), otherwise the remembered one.
 */
export function getAdChannelCode(search: string = window.location.search): string | undefined {
  const query = new URLSearchParams(search);
  for (const key of CHANNEL_QUERY_KEYS) {
    const value = query.get(key)?.trim();
    if (value) {
      storage.set(STORAGE_KEYS.adChannelCode, value);
      return value;
    }
  }
  return storage.get(STORAGE_KEYS.adChannelCode) ?? undefined;
}
