/**
 * Words and numbers of the account centre (issue 6): statuses in Chinese, APR, dates in Asia/Shanghai,
 * the export file name. Pure, so they are unit-tested. The status words are the ones of the server's
 * contract (@lm/shared/schemas/privacy); they are restated here because the browser bundle does not
 * carry zod (format.test.ts keeps the two in step).
 */
import type {
  LeadStatusValue,
  NoticeKind,
  NoticeStatus,
  OfferStatus,
  SessionRevokeReason,
} from '@lm/shared/schemas/privacy';

/** Lenders must delete a cancelled person's data within this many working days (product rule). */
export const DELETION_DEADLINE_WORKING_DAYS = 15;

export const OFFER_STATUS_TEXT: Record<OfferStatus, string> = {
  offered: '待授权',
  consented: '已授权',
  declined: '未授权',
  released: '已失效',
};

export const LEAD_STATUS_TEXT: Record<LeadStatusValue, string> = {
  pending: '待发送',
  delivered: '已发送给机构',
  dead: '发送失败',
  redirect: '已跳转机构页面',
  awaiting_callback: '等待机构处理',
  withdrawn: '已撤回授权，未发送',
  discarded: '发送失败，已停止发送',
};

export const NOTICE_KIND_TEXT: Record<NoticeKind, string> = {
  withdrawal: '撤回授权通知',
  deletion: '删除数据通知',
};

export const NOTICE_STATUS_TEXT: Record<NoticeStatus, string> = {
  pending: '正在通知机构',
  sent: '机构已收到',
  confirmed: '机构已确认',
  dead: '通知失败，平台处理中',
};

export const SESSION_REVOKE_TEXT: Record<SessionRevokeReason, string> = {
  logout: '已退出登录',
  replaced: '已在其他设备登录',
  cancelled: '账号已注销',
};

/** Spec §3 match types 1–6, in the words a borrower understands. */
const MATCH_TYPE_TEXT: Record<number, string> = {
  1: '智能匹配',
  2: '客服补充推荐',
  3: '客服推荐',
  4: '整车推荐',
  5: '轮车推荐',
  6: '二次匹配',
};

export function matchTypeText(matchType: number): string {
  return MATCH_TYPE_TEXT[matchType] ?? '产品匹配';
}

/** Tone of a status tag: antd-mobile Tag colours. */
export type Tone = 'success' | 'warning' | 'danger' | 'default' | 'primary';

export function offerTone(status: OfferStatus): Tone {
  return status === 'consented' ? 'success' : status === 'offered' ? 'warning' : 'default';
}

export function leadTone(status: LeadStatusValue): Tone {
  switch (status) {
    case 'delivered':
    case 'redirect':
      return 'success';
    case 'pending':
    case 'awaiting_callback':
      return 'warning';
    case 'dead':
      return 'danger';
    default:
      return 'default';
  }
}

/** 1799 → "年化 17.99%"; null (the lender did not publish one) → "年化利率以机构审批为准". */
export function formatApr(aprBps: number | null | undefined): string {
  if (aprBps === null || aprBps === undefined || !Number.isFinite(aprBps) || aprBps < 0) {
    return '年化利率以机构审批为准';
  }
  return `年化 ${(Math.round(aprBps) / 100).toFixed(2)}%`;
}

/** China has had no daylight saving time since 1991: Asia/Shanghai is always UTC+8. */
const SHANGHAI_OFFSET_MS = 8 * 3600_000;

function shanghaiParts(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return null;
  return new Date(t + SHANGHAI_OFFSET_MS).toISOString();
}

/** "2026-03-01T06:05:00Z" → "2026-03-01 14:05" (Asia/Shanghai); missing or invalid → "—". */
export function formatDateTime(iso: string | null | undefined): string {
  const s = shanghaiParts(iso);
  return s ? `${s.slice(0, 10)} ${s.slice(11, 16)}` : '—';
}

/** "2026-03-01T18:00:00Z" → "2026-03-02" (Asia/Shanghai calendar day); missing or invalid → "—". */
export function formatDate(iso: string | null | undefined): string {
  return shanghaiParts(iso)?.slice(0, 10) ?? '—';
}

export interface NoticeLike {
  kind: NoticeKind;
  status: NoticeStatus;
  dueAt: string | null;
  confirmedAt: string | null;
}

/**
 * One line about what the lender has been told: "删除数据通知：机构已确认（2026-03-05）",
 * "撤回授权通知：正在通知机构", with the deadline of a deletion that is not confirmed yet.
 */
export function noticeText(notice: NoticeLike): string {
  const head = `${NOTICE_KIND_TEXT[notice.kind]}：${NOTICE_STATUS_TEXT[notice.status]}`;
  if (notice.status === 'confirmed') {
    return notice.confirmedAt ? `${head}（${formatDate(notice.confirmedAt)}）` : head;
  }
  if (notice.kind === 'deletion' && notice.dueAt) {
    return `${head}，机构须于 ${formatDate(notice.dueAt)} 前完成删除`;
  }
  return head;
}

/** The file name a download should get: from Content-Disposition (RFC 5987 `filename*` first), else `fallback`. */
export function fileNameFromDisposition(header: string | null | undefined, fallback: string): string {
  if (!header) return fallback;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (star?.[1]) {
    try {
      const name = decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
      if (name) return safeFileName(name, fallback);
    } catch {
      // Malformed escape: try the plain parameter.
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/.exec(header);
  const name = (plain?.[2] ?? plain?.[1] ?? '').trim();
  return name ? safeFileName(name, fallback) : fallback;
}

function safeFileName(name: string, fallback: string): string {
  // Only the last path segment, no control characters.
  const base = name.split(/[\\/]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return clean || fallback;
}

/** The default name of the export: 我的数据-2026-03-01.json (Asia/Shanghai day). */
export function exportFileName(now: number = Date.now()): string {
  return `我的数据-${new Date(now + SHANGHAI_OFFSET_MS).toISOString().slice(0, 10)}.json`;
}
