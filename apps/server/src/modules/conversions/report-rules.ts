import type { AdReportStatus } from '@lm/shared/conversions';

/** How many characters of a click parameter the console shows (after "…"), at most. */
export const CLICK_REF_CHARS = 6;

/**
 * The click a report names, as the console shows it: "…" and the last characters of its click parameter —
 * six at most and never more than half of it, so a short click id is not shown whole. Nothing personal is
 * in a click id; it is masked all the same, as every reference in a console list.
 */
export function clickRef(clickId: string): string {
  const shown = Math.min(CLICK_REF_CHARS, Math.floor(clickId.length / 2));
  return shown > 0 ? `…${clickId.slice(-shown)}` : '…';
}

/** Why a report of each status cannot be replayed (null: it can — only a dead one). */
const REPLAY_REFUSALS: Record<AdReportStatus, string | null> = {
  pending: '这条回传还在等待发送，无需重新回传',
  sent: '这条回传已被广告平台接收，不能重复回传',
  dead: null,
  late: '这条回传已超出广告平台的回传时限，平台不再接收，不能重新回传',
};

/** Why the console may not send a report again, in words; null when it may (it is dead). */
export function replayRefusal(status: AdReportStatus): string | null {
  return REPLAY_REFUSALS[status];
}

/** What a channel partner is told about a channel that is not one of its own (or does not exist). */
export const FOREIGN_CHANNEL_REFUSAL = '只能查看本账号所属渠道的回传记录';

/**
 * Whether a console account may read a channel's reports: admin, operator and viewer any channel; a channel
 * partner only the channels it is bound to (null: it may; otherwise the refusal in words).
 */
export function readRefusal(
  member: { role: string; channelCodes: readonly string[] },
  adChannelCode: string | null,
): string | null {
  if (member.role !== 'channel_partner') return null;
  if (member.channelCodes.length === 0) return '账号未绑定渠道，请联系管理员';
  if (adChannelCode === null || !member.channelCodes.includes(adChannelCode)) return FOREIGN_CHANNEL_REFUSAL;
  return null;
}
