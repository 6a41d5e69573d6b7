import { STORAGE_KEYS } from '@/config/constants';
import { storage } from './storage';

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

export function getDeviceBrand(userAgent: string = navigator.userAgent): DeviceBrand {
  for (const [brand, pattern] of BRAND_PATTERNS) {
    if (pattern.test(userAgent)) return brand;
  }
  return 'default';
}

function randomId(): string {
  // getRandomValues works on plain http too (randomUUID needs a secure context).
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Visitor fingerprint: a random id kept in localStorage `VISITORID` (a real device fingerprint comes later). */
export function getFingerprint(): string {
  const existing = storage.get(STORAGE_KEYS.visitorId);
  if (existing) return existing;
  const id = randomId();
  storage.set(STORAGE_KEYS.visitorId, id);
  return id;
}
