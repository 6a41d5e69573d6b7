import { pickChannelCode } from '@lm/shared/channel';
import { STORAGE_KEYS } from '@/config/constants';
import { type KeyValueStore, storage } from '../storage';

// One rule for the server's channel pages and the app (packages/shared).
export { CHANNEL_QUERY_KEYS, pickChannelCode } from '@lm/shared/channel';

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
