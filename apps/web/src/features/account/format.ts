/**
 * Words and numbers of the account centre (issue 6): APR, dates in Asia/Shanghai, the export file
 * name. Pure, so they are unit-tested. The status words are the server contract's own, from the
 * zod-free @lm/shared/privacy-labels.
 */

import { OUTCOME_LABELS, type OutcomeStatus, outcomeYuan } from '@lm/shared/outcomes';
import {
  type LeadStatusValue,
  NOTICE_KIND_LABELS,
  NOTICE_STATUS_LABELS,
  type NoticeKind,
  type NoticeStatus,
  type OfferStatus,
} from '@lm/shared/privacy-labels';
import { formatShanghai, shanghaiDay } from '@lm/shared/time';

/** Lenders must delete a cancelled person's data within this many working days (product rule). */
export const DELETION_DEADLINE_WORKING_DAYS = 15;

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

export interface OfferOutcome {
  status: OutcomeStatus | 'pending';
  limitFen: number | null;
  amountFen: number | null;
}

/**
 * A lender's outcome as the person reads it (issue 47.6): 申请中 until the lender says otherwise, 已授信 with the
 * limit, 已放款 with the amount lent, 未通过 for a decline or a duplicate — the label, the amount line (null:
 * none) and the tag's tone.
 */
export function outcomeView(outcome: OfferOutcome): { label: string; amount: string | null; tone: Tone } {
  const label = OUTCOME_LABELS[outcome.status];
  switch (outcome.status) {
    case 'approved':
      return {
        label,
        amount: outcome.limitFen !== null ? `额度 ${outcomeYuan(outcome.limitFen)}` : null,
        // Good news in green: a skin's primary colour may be red, which reads as a refusal.
        tone: 'success',
      };
    case 'funded':
      return {
        label,
        amount: outcome.amountFen !== null ? `放款 ${outcomeYuan(outcome.amountFen)}` : null,
        tone: 'success',
      };
    case 'declined':
    case 'duplicate':
      return { label, amount: null, tone: 'default' };
    default:
      return { label, amount: null, tone: 'warning' };
  }
}

/** 1799 → "年化 17.99%"; null (the lender did not publish one) → "年化利率以机构审批为准". */
export function formatApr(aprBps: number | null | undefined): string {
  if (aprBps === null || aprBps === undefined || !Number.isFinite(aprBps) || aprBps < 0) {
    return '年化利率以机构审批为准';
  }
  return `年化 ${(Math.round(aprBps) / 100).toFixed(2)}%`;
}

/** "2026-03-01T06:05:00Z" → "2026-03-01 14:05" (Asia/Shanghai); missing or invalid → "—". */
export function formatDateTime(iso: string | null | undefined): string {
  return formatShanghai(iso);
}

/** "2026-03-01T18:00:00Z" → "2026-03-02" (Asia/Shanghai calendar day); missing or invalid → "—". */
export function formatDate(iso: string | null | undefined): string {
  return formatShanghai(iso, 'day');
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
  const head = `${NOTICE_KIND_LABELS[notice.kind]}：${NOTICE_STATUS_LABELS[notice.status]}`;
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
  return `我的数据-${shanghaiDay(now)}.json`;
}

/**
 * What a cancellation did, in the order the confirmation page says it (issue 44.17). `lenderCount`:
 * the lenders that had the person's data (the data-sharing list), null when it could not be read.
 */
export function cancellationOutcome(lenderCount: number | null): string[] {
  const lenders =
    lenderCount === null
      ? `每一家获得过您信息的机构都已收到删除通知，须在 ${DELETION_DEADLINE_WORKING_DAYS} 个工作日内删除，平台会跟踪直至完成。`
      : lenderCount > 0
        ? `已获得您信息的 ${lenderCount} 家机构已收到删除通知，须在 ${DELETION_DEADLINE_WORKING_DAYS} 个工作日内删除，平台会跟踪直至完成。`
        : '没有机构获得过您的信息，无需通知删除。';
  return [
    '您的账户资料、申请记录已删除，所有设备上的登录已失效。',
    lenders,
    '已获批或已放款的借款不受影响，请按借款合同按时还款。',
  ];
}
