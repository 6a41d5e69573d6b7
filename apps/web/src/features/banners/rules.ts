/**
 * The home dialog banner's rules (pure, unit-tested): shown at most once per Shanghai calendar day
 * and channel on this device (localStorage), and a tap only leads to a page of this site or to an
 * https page on the channel's allowed hosts (which /inline-page checks once more).
 */
import { type KeyValueStore, readJson, writeJson } from '@/lib/storage';

export const HOME_DIALOG_SHOWN_KEY = 'HOME_DIALOG_SHOWN';

/** Channel ('' for none) → Shanghai day of the last showing. */
type ShownMap = Record<string, string>;

export function shouldShowHomeDialog(store: KeyValueStore, channel: string, today: string): boolean {
  const map = readJson<ShownMap>(store, HOME_DIALOG_SHOWN_KEY);
  return !map || typeof map !== 'object' || map[channel] !== today;
}

/** Records today's showing; older days are dropped. */
export function markHomeDialogShown(store: KeyValueStore, channel: string, today: string): void {
  const map = readJson<ShownMap>(store, HOME_DIALOG_SHOWN_KEY) ?? {};
  const kept: ShownMap = {};
  for (const [code, day] of Object.entries(map)) if (day === today) kept[code] = day;
  kept[channel] = today;
  writeJson(store, HOME_DIALOG_SHOWN_KEY, kept);
}

export type BannerTarget = { kind: 'route'; to: string } | { kind: 'inline'; url: string } | null;

/**
 * Where a banner tap goes: a same-site path (`/advertising`, or an absolute URL of this origin) is a
 * route; an https URL on an allowed host opens in /inline-page; anything else goes nowhere.
 */
export function resolveBannerTarget(
  target: string | null | undefined,
  allowedHosts: readonly string[],
  origin: string,
): BannerTarget {
  const value = target?.trim();
  if (!value) return null;
  if (value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\')) {
    return { kind: 'route', to: value };
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.username || url.password) return null;
  if (url.origin === origin) return { kind: 'route', to: `${url.pathname}${url.search}${url.hash}` };
  if (url.protocol !== 'https:') return null;
  const host = url.hostname.toLowerCase();
  return allowedHosts.some((h) => h.trim().toLowerCase() === host) ? { kind: 'inline', url: url.href } : null;
}
