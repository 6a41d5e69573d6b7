/**
 * Ad clicks (issue 47.1, ADR 069): the ad platforms whose conversions we report, the landing-URL
 * parameters that identify one of their clicks, the `track_report` header the H5 sends them in (spec §7),
 * and the attribution rule that ties a person to the click that brought them.
 */
import { z } from 'zod';

export const AD_PLATFORMS = ['oceanengine', 'kuaishou', 'baidu', 'tencent'] as const;
export type AdPlatform = (typeof AD_PLATFORMS)[number];

export const AD_PLATFORM_LABELS: Record<AdPlatform, string> = {
  oceanengine: '巨量引擎（抖音、今日头条）',
  kuaishou: '磁力引擎（快手）',
  baidu: '百度营销',
  tencent: '腾讯广告（微信、QQ）',
};

/**
 * The landing-URL parameters that name one click, in order of preference: Ocean Engine `clickid` (its
 * conversion API's `context.ad.callback` for landing-page attribution; a monitoring link's
 * `__CALLBACK_PARAM__` arrives as `callback`), Kuaishou `callback`, Baidu `bd_vid`, Tencent `gdt_vid` (or the
 * older `qz_gdt`).
 */
export const CLICK_ID_PARAMS: Record<AdPlatform, readonly string[]> = {
  oceanengine: ['clickid', 'callback'],
  kuaishou: ['callback'],
  baidu: ['bd_vid'],
  tencent: ['gdt_vid', 'qz_gdt'],
};

/** Longest parameter value kept (the H5 cuts at the same length; callback URLs are a few hundred characters). */
export const CLICK_PARAM_MAX = 1024;

/** How long after a click a login is still credited to it, unless the channel says otherwise (ADR 069). */
export const DEFAULT_ATTRIBUTION_WINDOW_DAYS = 7;

/**
 * The `track_report` header as the H5 sends it: JSON with the platform and the captured parameters
 * (`{"platform":"oceanengine","clickid":"…","callback":"…"}`), non-ASCII characters \u-escaped.
 */
export const trackReportHeaderSchema = z
  .object({ platform: z.string().min(1).max(32) })
  .catchall(z.string().max(CLICK_PARAM_MAX));

/** One ad click as the server keeps it: which platform, its id there, and the parameters it came with. */
export interface AdClick {
  platform: AdPlatform;
  /** The first of the platform's CLICK_ID_PARAMS present. */
  clickId: string;
  /** The platform's click parameters present (never anything else the header carried). */
  params: Record<string, string>;
}

const isAdPlatform = (p: string): p is AdPlatform => (AD_PLATFORMS as readonly string[]).includes(p);

/**
 * The click a `track_report` header names, or null: no header, not JSON, not the header's shape, a
 * platform we do not report to, or none of its click parameters. Only the platform's click parameters
 * are kept.
 */
export function clickOfTrackReport(raw: string | string[] | undefined): AdClick | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 8192) return null;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return null;
  }
  const parsed = trackReportHeaderSchema.safeParse(json);
  if (!parsed.success) return null;
  const { platform, ...rest } = parsed.data;
  if (!isAdPlatform(platform)) return null;
  const params: Record<string, string> = {};
  for (const name of CLICK_ID_PARAMS[platform]) {
    const value = rest[name]?.trim();
    if (value) params[name] = value;
  }
  const clickId = CLICK_ID_PARAMS[platform].map((n) => params[n]).find((v) => v !== undefined);
  return clickId ? { platform, clickId, params } : null;
}

/** A click as attribution sees it. */
export interface SeenClick {
  id: number;
  channelCode: string;
  /** When the click was first seen (its landing). */
  seenAt: Date;
  /** The person it was credited to, if any. */
  userId: number | null;
}

/**
 * The attribution rule (ADR 069): the click a login of `userId` on `channelCode` at `now` is credited to —
 * the last click on that channel seen within the window before the login that is not another person's.
 * Null when there is none.
 */
export function attributedClick<C extends SeenClick>(
  clicks: readonly C[],
  at: { userId: number; channelCode: string; now: Date; windowDays: number },
): C | null {
  const from = at.now.getTime() - at.windowDays * 86_400_000;
  let best: C | null = null;
  for (const c of clicks) {
    const t = c.seenAt.getTime();
    if (c.channelCode !== at.channelCode || t < from || t > at.now.getTime()) continue;
    if (c.userId !== null && c.userId !== at.userId) continue;
    if (!best || t > best.seenAt.getTime() || (t === best.seenAt.getTime() && c.id > best.id)) best = c;
  }
  return best;
}
