/**
 * Console channel rules (issue 7), pure: the stored row ↔ the console's form (skin separate from the
 * option flags), and the audit snapshot of a channel.
 */
import { DEFAULT_SKIN, KNOWN_FLAGS, parseChannelFlags } from '@lm/shared/channel';
import type { ChannelDraft } from '@lm/shared/schemas/admin-channels';
import { targetHost } from '@lm/shared/schemas/admin-channels';
import type { ChannelRow } from '../channels/rules.ts';

/** The stored flag value of a draft: `skinN` first, then the option flags. */
export function flagsValue(skin: number, flags: readonly string[]): string {
  return [`skin${skin}`, ...flags].join('-');
}

/** The form's view of a stored flag value: skin, known option flags, and flags the table does not know. */
export function splitFlags(value: string): { skin: number; flags: string[]; unknownFlags: string[] } {
  const { skin, flags: all } = parseChannelFlags(value);
  const known = KNOWN_FLAGS as readonly string[];
  const flags: string[] = [];
  const unknownFlags: string[] = [];
  for (const f of all) {
    if (/^skin\d+$/.test(f)) {
      if (!known.includes(f)) unknownFlags.push(f);
      continue;
    }
    if (known.includes(f)) {
      if (!flags.includes(f)) flags.push(f);
    } else unknownFlags.push(f);
  }
  return { skin: skin ?? DEFAULT_SKIN, flags, unknownFlags };
}

/**
 * Channel columns written from a draft (everything but the code, status and timestamps), with the id of the
 * operator its `operatorCode` names (null: the configured operator).
 */
export function draftColumns(d: ChannelDraft, operatorId: number | null) {
  return {
    name: d.name,
    linkType: d.linkType,
    flags: flagsValue(d.skin, d.flags),
    skinArms: d.skinArms ?? null,
    excludeCityCodes: d.excludeCityCodes,
    planTargetUrl: d.planTargetUrl ?? null,
    pageTitle: d.pageTitle ?? null,
    pageIcon: d.pageIcon ?? null,
    needsLocation: d.needsLocation,
    trackReport: d.trackReport ?? null,
    allowedHosts: d.allowedHosts,
    operatorId,
  };
}

/**
 * The audit log's before/after of a channel (the icon, possibly a long data: URI, is shortened; the operator
 * by its code, null for the configured one).
 */
export function channelSnapshot(row: ChannelRow, operatorCode: string | null): Record<string, unknown> {
  const { createdAt: _c, pageIcon, operatorId: _o, ...rest } = row;
  return {
    ...rest,
    operatorCode,
    pageIcon:
      pageIcon && pageIcon.length > 120 ? `${pageIcon.slice(0, 100)}…(${pageIcon.length} 字符)` : pageIcon,
  };
}

/**
 * Plan targets of route codes must also stay on the channel's allowed hosts: the hosts of those not
 * allowed (an edit that drops a host still used by a route code is refused).
 */
export function disallowedTargets(
  targets: readonly (string | null)[],
  allowedHosts: readonly string[],
): string[] {
  const out = new Set<string>();
  for (const t of targets) {
    const host = t ? targetHost(t) : null;
    if (host && !allowedHosts.includes(host)) out.add(host);
  }
  return [...out];
}
