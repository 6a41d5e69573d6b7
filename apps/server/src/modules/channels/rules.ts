import {
  AGREEMENT_PAGES,
  FLOW_ROUTES,
  type H5Config,
  LinkType,
  parseChannelFlags,
  SKINS,
  THEMES,
} from '@lm/shared/channel';
import type { channels, LicensedCompany } from '../../db/schema.ts';
import { partnerTargetUrl } from '../../lib/partner-url.ts';

export type ChannelRow = typeof channels.$inferSelect;

/**
 * What a channel's configuration is built from: its row and the licensed-company record of its operator
 * (ADR 057), null when it has none (the configured operator's is shown).
 */
export type ChannelSource = ChannelRow & { operator: LicensedCompany | null };

/**
 * The configuration served without a channel code or for an unknown one. linkType 4 (API form H5
 * redirect) so that the post-login decision takes the default flow (spec §4: only 1 and 3 branch off).
 */
export const DEFAULT_CHANNEL = {
  adChannelCode: '',
  name: '默认渠道',
  channelStatus: 1,
  linkType: LinkType.API_FORM_H5,
  flags: 'skin17',
} as const;

const AGREEMENTS = AGREEMENT_PAGES.map((a) => ({ key: a.key, title: a.title, path: `/${a.key}` }));

/**
 * A redirect target the H5 may follow: a same-site path ("/login?…", not "//host"), or an http(s) URL
 * whose host is one of the channel's allowed hosts. Anything else is dropped (open-redirect defence).
 */
export function safeTargetUrl(
  url: string | null | undefined,
  allowedHosts: readonly string[],
): string | null {
  const value = url?.trim();
  if (!value) return null;
  if (value.startsWith('/')) {
    const hasControl = [...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
    return /^\/[/\\]/.test(value) || hasControl ? null : value;
  }
  return partnerTargetUrl(value, allowedHosts);
}

/**
 * Everything the H5 needs for one channel (or the default configuration for `null`). The footer names the
 * channel's operator, else `fallbackOperator` (the configured one): the party its agreements and SMS name.
 */
export function buildH5Config(row: ChannelSource | null, fallbackOperator: LicensedCompany): H5Config {
  const features = parseChannelFlags(row?.flags ?? DEFAULT_CHANNEL.flags);
  const allowedHosts = row?.allowedHosts ?? [];
  const arms = validArms(row?.skinArms);
  return {
    ...(arms ? { skinArms: arms } : {}),
    adChannelCode: row?.adChannelCode ?? DEFAULT_CHANNEL.adChannelCode,
    name: row?.name ?? DEFAULT_CHANNEL.name,
    channelStatus: row?.channelStatus ?? DEFAULT_CHANNEL.channelStatus,
    linkType: row?.linkType ?? DEFAULT_CHANNEL.linkType,
    skin: features.skin,
    theme: features.theme,
    themeColor: THEMES[features.theme].primary,
    flow: features.flow,
    flowRoutes: { ...FLOW_ROUTES[features.flow] },
    flags: features.flags,
    title: row?.pageTitle ?? null,
    icon: row?.pageIcon ?? null,
    needsLocation: row?.needsLocation ?? false,
    excludeCityCodes: row?.excludeCityCodes ?? [],
    planTargetUrl: safeTargetUrl(row?.planTargetUrl, allowedHosts),
    trackReport: row?.trackReport ?? null,
    allowedHosts,
    footer: [{ ...(row?.operator ?? fallbackOperator) }],
    agreements: AGREEMENTS.map((a) => ({ ...a })),
  };
}

/** Channel detail of spec §3, from a channel's configuration. */
export function channelDetail(config: H5Config) {
  return {
    adChannelCode: config.adChannelCode,
    channelStatus: config.channelStatus,
    linkType: config.linkType,
    excludeCityCodes: config.excludeCityCodes,
    planTargetUrl: config.planTargetUrl,
  };
}

export interface SkinArm {
  skin: number;
  weight: number;
}

/** The arms of a channel's A/B split, or null when it has none that can be used (fewer than two valid arms). */
export function validArms(arms: readonly SkinArm[] | null | undefined): SkinArm[] | null {
  const usable = (arms ?? []).filter(
    (a) => (SKINS as readonly number[]).includes(a.skin) && Number.isInteger(a.weight) && a.weight > 0,
  );
  return usable.length >= 2 ? usable.map((a) => ({ skin: a.skin, weight: a.weight })) : null;
}

/**
 * A number in [0, 1) from a keyed hash (base64url or hex text of at least 48 bits): its first six
 * bytes as a big-endian fraction.
 */
export function hashFraction(keyedHash: string): number {
  const bytes =
    /^[0-9a-f]+$/i.test(keyedHash) && keyedHash.length >= 12
      ? Buffer.from(keyedHash.slice(0, 12), 'hex')
      : Buffer.from(keyedHash, 'base64url');
  if (bytes.length < 6) throw new Error('keyed hash too short for an arm pick');
  return bytes.readUIntBE(0, 6) / 2 ** 48;
}

/**
 * The A/B arm of a visitor: `visitorKey` is a keyed hash of (channel code, visitor), so the pick is
 * deterministic (the same visitor gets the same arm while the arms are unchanged), unpredictable
 * without the key, and spread over the arms in proportion to their weights.
 */
export function pickArm<T extends SkinArm>(arms: readonly T[], visitorKey: string): T {
  if (arms.length === 0) throw new Error('pickArm needs at least one arm');
  const total = arms.reduce((sum, a) => sum + a.weight, 0);
  let point = hashFraction(visitorKey) * total;
  for (const arm of arms) {
    if (point < arm.weight) return arm;
    point -= arm.weight;
  }
  return arms[arms.length - 1]!;
}

/** The configuration as one arm's visitors see it: the arm's skin (and skin flag); the arms stay private. */
export function withSkin(config: H5Config, skin: number): H5Config {
  const { skinArms: _arms, ...rest } = config;
  const flags = config.flags.filter((f) => !/^skin\d+$/.test(f));
  return { ...rest, skin, flags: [`skin${skin}`, ...flags] };
}
