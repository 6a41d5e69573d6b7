import type { AppPlatform, AppVersionData } from '@lm/shared/schemas/site';
import { shanghaiDay } from '@lm/shared/shanghai-day';

/** The app of this phone: iOS for iPhone / iPad / iPod, Android (including HarmonyOS) otherwise. */
export function appPlatformOf(userAgent: string): AppPlatform {
  return /iphone|ipad|ipod/i.test(userAgent) ? 'ios' : 'android';
}

/** A download address the button may open: https only (an app store or our download host). */
export function safeDownloadUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' && !parsed.username && !parsed.password ? parsed.href : null;
  } catch {
    return null;
  }
}

/** "2.3.0 · 2026-03-01 更新" (Shanghai date). */
export function versionLine(v: Pick<AppVersionData, 'version' | 'publishedAt'>): string {
  const at = Date.parse(v.publishedAt);
  const day = Number.isNaN(at) ? '' : shanghaiDay(at);
  return day ? `v${v.version} · ${day} 更新` : `v${v.version}`;
}

/** An absolute link to share from the API's answer (a path when the server has no public base URL). */
export function absoluteLink(url: string, origin: string): string {
  return /^https?:\/\//i.test(url) ? url : `${origin}${url.startsWith('/') ? '' : '/'}${url}`;
}
