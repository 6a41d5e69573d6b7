import type { NoticeKind, NoticeStatus } from '@lm/shared/schemas/privacy';

/** Staff-facing words for a notice's state. */
export const NOTICE_STATUS_TEXT: Record<NoticeStatus, string> = {
  pending: '待发送',
  sent: '已送达，待机构确认',
  confirmed: '机构已确认',
  dead: '发送失败',
};

/** A withdrawal needs no confirmation from the lender: once received, it is done. */
export function noticeStatusText(kind: NoticeKind, status: NoticeStatus): string {
  return kind === 'withdrawal' && status === 'sent' ? '机构已收到' : NOTICE_STATUS_TEXT[status];
}

export const NOTICE_STATUS_COLOR: Record<NoticeStatus, string> = {
  pending: 'processing',
  sent: 'gold',
  confirmed: 'success',
  dead: 'error',
};

export const NOTICE_KIND_TEXT: Record<NoticeKind, string> = {
  deletion: '删除请求（注销）',
  withdrawal: '撤回授权通知',
};

/** "剩 3 个工作日" / "今天到期" / "逾期 2 个工作日" / "已完成" / "—". */
export function workingDaysText(item: {
  status: NoticeStatus;
  overdue: boolean;
  workingDaysLeft: number | null;
}): string {
  if (item.status === 'confirmed') return '已完成';
  if (item.workingDaysLeft === null) return '—';
  if (item.overdue) {
    return item.workingDaysLeft < 0 ? `逾期 ${-item.workingDaysLeft} 个工作日` : '已逾期';
  }
  return item.workingDaysLeft === 0 ? '今天到期' : `剩 ${item.workingDaysLeft} 个工作日`;
}

/** What the retry button does for a notice, or null when there is nothing to retry. */
export function retryAction(item: {
  kind: NoticeKind;
  status: NoticeStatus;
}): '重新发送' | '再次提醒' | null {
  if (item.status === 'dead') return '重新发送';
  if (item.kind === 'deletion' && item.status === 'sent') return '再次提醒';
  return null;
}
