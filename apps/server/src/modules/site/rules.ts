import { createHmac } from 'node:crypto';
import { maskMiddle } from '@lm/shared/mask';
import {
  type AppDownloadManifest,
  type AppIndexIcon,
  type AppPlatform,
  type AppVersionData,
  appIndexIcon,
  TEMP_LINK_TTL_SECONDS,
  type TempLinkType,
  USER_INFO_LOG_MAX_KEYS,
  USER_INFO_LOG_MAX_VALUE_CHARS,
} from '@lm/shared/schemas/site';
import { constantTimeEqual } from '../../lib/crypto.ts';

/**
 * Pure rules of the site module (issue 6): what a log line keeps, which banner shows, the newest
 * app version and the download JSON, the temporary link's signature. No I/O here.
 */

// --- personal data out of free text ------------------------------------------------------------

export const PHONE_PLACEHOLDER = '[手机号已隐藏]';
export const ID_PLACEHOLDER = '[证件号已隐藏]';
export const HIDDEN_PLACEHOLDER = '[已隐藏]';

/**
 * 11-digit phone-like numbers starting with 1, alone (not part of a longer run of digits), with an
 * optional +86 / 0086 / 86 prefix and optional separators (138 1234 5678, 138-1234-5678).
 */
const PHONE_LIKE = /(?<![\d])(?:(?:\+|00)?86[\s-]?)?1\d{2}[\s-]?\d{4}[\s-]?\d{4}(?![\d])/g;
/** Mainland ID numbers: 18 characters (17 digits + digit or X) or the old 15 digits, alone. */
const ID_LIKE = /(?<![\dA-Za-z])(?:\d{17}[\dXx]|\d{15})(?![\dA-Za-z])/g;

/** `text` with phone-like and ID-like numbers replaced by placeholders (nothing personal is stored). */
export function stripPersonalNumbers(text: string): string {
  return text.replace(ID_LIKE, ID_PLACEHOLDER).replace(PHONE_LIKE, PHONE_PLACEHOLDER);
}

/** Query keys whose values are never stored (personal data or secrets), compared case-insensitively. */
const SENSITIVE_KEYS = new Set([
  'phone',
  'mobile',
  'rp',
  'rsaphone',
  'encryptionmobile',
  'identity',
  'idcard',
  'idnumber',
  'realname',
  'name',
  'token',
  'accesstoken',
  'password',
  'code',
  'smscode',
  'openid',
]);

/**
 * What GET /api/user/info/log stores of a query: at most USER_INFO_LOG_MAX_KEYS keys (in the order
 * given), values cut to USER_INFO_LOG_MAX_VALUE_CHARS characters with phones and ID numbers hidden,
 * and the values of personal or secret keys (phone, identity, token …) replaced altogether.
 */
export function sanitizeLogQuery(query: Record<string, string>): {
  values: Record<string, string>;
  droppedKeys: number;
} {
  const entries = Object.entries(query);
  const values: Record<string, string> = {};
  for (const [key, raw] of entries.slice(0, USER_INFO_LOG_MAX_KEYS)) {
    if (SENSITIVE_KEYS.has(key.toLowerCase())) {
      values[key] = HIDDEN_PLACEHOLDER;
      continue;
    }
    // Cut first (so a number cut in half cannot escape), then cut again after the placeholders.
    values[key] = [...stripPersonalNumbers([...raw].slice(0, USER_INFO_LOG_MAX_VALUE_CHARS).join(''))]
      .slice(0, USER_INFO_LOG_MAX_VALUE_CHARS)
      .join('');
  }
  return { values, droppedKeys: Math.max(0, entries.length - USER_INFO_LOG_MAX_KEYS) };
}

/** The report/type and report/click extra data with phones and ID numbers hidden in its texts. */
export function sanitizeReportData(
  data: Record<string, string | number | boolean> | undefined,
): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(data ?? {})) {
    if (SENSITIVE_KEYS.has(key.toLowerCase())) out[key] = HIDDEN_PLACEHOLDER;
    else if (typeof value === 'string') out[key] = stripPersonalNumbers(value);
    else if (typeof value === 'number' && Number.isFinite(value)) {
      // A number long enough to be a phone or an ID number is kept as hidden text.
      const text = stripPersonalNumbers(String(value));
      out[key] = text === String(value) ? value : text;
    } else if (typeof value === 'boolean') out[key] = value;
  }
  return out;
}

// --- platform_param ---------------------------------------------------------------------------

const CHANNEL_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/** The `currentChannelCode` of a platform_param header (JSON), when it is a well-formed code. */
export function channelOfPlatformParam(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw.length >= 2048) return undefined;
  try {
    const parsed = JSON.parse(raw) as { currentChannelCode?: unknown };
    const code = parsed?.currentChannelCode;
    return typeof code === 'string' && CHANNEL_PATTERN.test(code) ? code : undefined;
  } catch {
    return undefined;
  }
}

// --- banners -----------------------------------------------------------------------------------

export interface BannerCandidate {
  id: number;
  placement: string;
  enabled: boolean;
  channelCodes: string[] | null;
  sort: number;
  startsAt: Date;
  endsAt: Date | null;
}

/** Whether `banner` may show now for `channel` (null channelCodes: every channel, including none). */
export function bannerApplies(
  banner: BannerCandidate,
  placement: string,
  channel: string | undefined,
  now: Date,
) {
  if (!banner.enabled || banner.placement !== placement) return false;
  if (banner.startsAt.getTime() > now.getTime()) return false;
  if (banner.endsAt && banner.endsAt.getTime() <= now.getTime()) return false;
  if (banner.channelCodes === null) return true;
  return channel !== undefined && banner.channelCodes.includes(channel);
}

/**
 * The banner to show: enabled, of the placement, started and not ended, for the channel (or for
 * every channel); the lowest `sort` first, then the latest start, then the newest row.
 */
export function pickBanner<T extends BannerCandidate>(
  rows: readonly T[],
  placement: string,
  channel: string | undefined,
  now: Date,
): T | null {
  const fitting = rows.filter((b) => bannerApplies(b, placement, channel, now));
  fitting.sort((a, b) => a.sort - b.sort || b.startsAt.getTime() - a.startsAt.getTime() || b.id - a.id);
  return fitting[0] ?? null;
}

// --- app versions ------------------------------------------------------------------------------

export interface VersionRow {
  platform: AppPlatform;
  version: string;
  build: number;
  downloadUrl: string;
  notes: string;
  forceUpdate: boolean;
  publishedAt: Date;
}

export function toVersionData(row: VersionRow): AppVersionData {
  return {
    platform: row.platform,
    version: row.version,
    build: row.build,
    downloadUrl: row.downloadUrl,
    notes: row.notes,
    forceUpdate: row.forceUpdate,
    publishedAt: row.publishedAt.toISOString(),
  };
}

/** The newest published version of `platform`: the highest build already published, then the latest. */
export function newestVersion<T extends VersionRow>(
  rows: readonly T[],
  platform: AppPlatform,
  now: Date,
): T | null {
  let best: T | null = null;
  for (const row of rows) {
    if (row.platform !== platform || row.publishedAt.getTime() > now.getTime()) continue;
    if (
      !best ||
      row.build > best.build ||
      (row.build === best.build && row.publishedAt.getTime() > best.publishedAt.getTime())
    ) {
      best = row;
    }
  }
  return best;
}

/** The app-download JSON: the newest version per platform. */
export function buildManifest(rows: readonly VersionRow[], now: Date): AppDownloadManifest {
  const android = newestVersion(rows, 'android', now);
  const ios = newestVersion(rows, 'ios', now);
  return {
    generatedAt: now.toISOString(),
    android: android ? toVersionData(android) : null,
    ios: ios ? toVersionData(ios) : null,
  };
}

/** Two manifests with the same versions (generatedAt aside): no need to write the file again. */
export function sameVersions(a: AppDownloadManifest | null, b: AppDownloadManifest): boolean {
  return a !== null && JSON.stringify([a.android, a.ios]) === JSON.stringify([b.android, b.ios]);
}

// --- page configuration -----------------------------------------------------------------------

/** The icons of an `appIndexIconList` configuration ({icons: [...]}); malformed entries are left out. */
export function iconsOf(config: Record<string, unknown> | null | undefined): AppIndexIcon[] {
  const list = config?.icons;
  if (!Array.isArray(list)) return [];
  const out: AppIndexIcon[] = [];
  for (const entry of list) {
    const parsed = appIndexIcon.safeParse(entry);
    if (parsed.success && !out.some((i) => i.key === parsed.data.key)) out.push(parsed.data);
  }
  return out;
}

// --- temporary link ----------------------------------------------------------------------------

/** Where a temporary link leads (pages of the H5). */
export const TEMP_LINK_TARGETS: Record<TempLinkType, string> = {
  download: '/download',
  service: '/apply_my',
};

export interface TempLinkPayload {
  /** Type. */
  t: TempLinkType;
  /** Channel code carried to the target (attribution), if any. */
  c?: string;
  /** Expiry, unix seconds. */
  e: number;
}

function mac(key: string, text: string): string {
  return createHmac('sha256', key).update(text).digest('base64url');
}

/** `<base64url JSON payload>.<base64url HMAC-SHA256 of it>`. */
export function signTempLink(
  key: string,
  input: { type: TempLinkType; channel?: string | undefined },
  now: Date,
  ttlSeconds = TEMP_LINK_TTL_SECONDS,
): { token: string; expiresAt: Date } {
  const e = Math.floor(now.getTime() / 1000) + ttlSeconds;
  const payload: TempLinkPayload = { t: input.type, ...(input.channel ? { c: input.channel } : {}), e };
  const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  return { token: `${body}.${mac(key, body)}`, expiresAt: new Date(e * 1000) };
}

export type TempLinkCheck =
  | { ok: true; payload: TempLinkPayload }
  | { ok: false; reason: 'malformed' | 'bad-signature' | 'expired'; type?: TempLinkType };

/** Checks a token's signature and expiry (an expired token still names its type). */
export function verifyTempLink(key: string, token: string, now: Date): TempLinkCheck {
  const [body, sig, extra] = token.split('.');
  if (!body || !sig || extra !== undefined) return { ok: false, reason: 'malformed' };
  if (!constantTimeEqual(mac(key, body), sig)) return { ok: false, reason: 'bad-signature' };
  let payload: TempLinkPayload;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as TempLinkPayload;
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (
    !payload ||
    !(payload.t in TEMP_LINK_TARGETS) ||
    !Number.isInteger(payload.e) ||
    (payload.c !== undefined && !CHANNEL_PATTERN.test(payload.c))
  ) {
    return { ok: false, reason: 'malformed' };
  }
  if (payload.e * 1000 <= now.getTime()) return { ok: false, reason: 'expired', type: payload.t };
  return { ok: true, payload };
}

/** Where opening a token sends the browser: the target with the channel, or marked expired. */
export function tempLinkRedirect(check: TempLinkCheck): string {
  if (check.ok) {
    const target = TEMP_LINK_TARGETS[check.payload.t];
    return check.payload.c ? `${target}?adChannelCode=${encodeURIComponent(check.payload.c)}` : target;
  }
  return `${check.type ? TEMP_LINK_TARGETS[check.type] : TEMP_LINK_TARGETS.download}?linkExpired=1`;
}

// --- staff WeChat --------------------------------------------------------------------------------

/** An openid with its middle hidden (o6_b****Xc0M). */
export function maskOpenid(openid: string): string {
  return maskMiddle(openid, 4, 4);
}
