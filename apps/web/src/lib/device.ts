import { STORAGE_KEYS } from '@/config/constants';
import { type KeyValueStore, storage } from './storage';

export type DeviceBrand = 'iphone' | 'huawei' | 'oppo' | 'vivo' | 'xiaomi' | 'samsung' | 'default';

/** Brand detection classes of spec §3; Honor counts as Huawei. Order matters: specific brands first. */
const BRAND_PATTERNS: ReadonlyArray<readonly [DeviceBrand, RegExp]> = [
  ['iphone', /iphone|ipad|ipod/i],
  ['huawei', /huawei|honor|harmonyos|\b(?:hma|lya|ele|vog|ana|noh|tas|lio)-/i],
  ['oppo', /oppo|heytap|\bp[a-h][a-z]m\d{2}\b|\bcph\d{4}\b/i],
  ['vivo', /vivo|\bv\d{4}[a-z]{1,2}\b/i],
  ['xiaomi', /xiaomi|redmi|miui|\bmi \d|\bm\d{4}[a-z]\d{1,2}[a-z]{0,2}\b/i],
  ['samsung', /samsung|\bsm-[a-z]\d{3}/i],
];

function currentUserAgent(): string {
  return typeof navigator === 'undefined' ? '' : navigator.userAgent;
}

export function getDeviceBrand(userAgent: string = currentUserAgent()): DeviceBrand {
  for (const [brand, pattern] of BRAND_PATTERNS) {
    if (pattern.test(userAgent)) return brand;
  }
  return 'default';
}

export function isHuaweiPhone(userAgent: string = currentUserAgent()): boolean {
  return getDeviceBrand(userAgent) === 'huawei';
}

/**
 * User-agent token our native app appends to its webview's user agent, e.g.
 * `Mozilla/5.0 (Linux; Android 14; …) … Mobile Safari/537.36 LoanMarketApp/2.3.0`.
 * Inside that webview the API client sends platform_param with appType 3 and channel 1 (spec §7).
 */
export const APP_WEBVIEW_UA_TOKEN = 'LoanMarketApp/';

export function isAppWebview(userAgent: string = currentUserAgent()): boolean {
  return userAgent.includes(APP_WEBVIEW_UA_TOKEN);
}

/**
 * The device fingerprint computed by the analytics module (FingerprintJS visitorId, localStorage
 * `VISITORID`), or '' until it has been computed once on this device.
 */
export function getFingerprint(store: KeyValueStore = storage): string {
  return store.get(STORAGE_KEYS.visitorId) ?? '';
}
