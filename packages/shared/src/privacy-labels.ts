/**
 * Personal-data rights (issue 6): the statuses of sessions, offers, leads and lender notices with the
 * words a borrower reads. Zod-free, so the H5 imports it at run time; schemas/privacy.ts builds on it.
 */

export const SESSION_REVOKE_REASONS = ['logout', 'replaced', 'cancelled'] as const;
export type SessionRevokeReason = (typeof SESSION_REVOKE_REASONS)[number];

/** Chinese labels of why a session ended. */
export const SESSION_REVOKE_REASON_LABELS: Record<SessionRevokeReason, string> = {
  logout: '已退出登录',
  replaced: '已在其他设备登录',
  cancelled: '账号已注销',
};

export const OFFER_STATUSES = ['offered', 'consented', 'declined', 'released'] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];
export const OFFER_STATUS_LABELS: Record<OfferStatus, string> = {
  offered: '待授权',
  consented: '已授权',
  declined: '未授权',
  released: '已失效',
};

export const LEAD_STATUSES = [
  'pending',
  'delivered',
  'dead',
  'redirect',
  'awaiting_callback',
  'withdrawn',
  'discarded',
] as const;
export type LeadStatusValue = (typeof LEAD_STATUSES)[number];
export const LEAD_STATUS_LABELS: Record<LeadStatusValue, string> = {
  pending: '待发送',
  delivered: '已发送给机构',
  dead: '发送失败',
  redirect: '已跳转机构页面',
  awaiting_callback: '等待机构处理',
  withdrawn: '已撤回授权，未发送',
  discarded: '发送失败，已停止发送',
};

export const NOTICE_KINDS = ['withdrawal', 'deletion'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];
export const NOTICE_KIND_LABELS: Record<NoticeKind, string> = {
  withdrawal: '撤回授权通知',
  deletion: '删除数据通知',
};

export const NOTICE_STATUSES = ['pending', 'sent', 'confirmed', 'dead'] as const;
export type NoticeStatus = (typeof NOTICE_STATUSES)[number];
export const NOTICE_STATUS_LABELS: Record<NoticeStatus, string> = {
  pending: '正在通知机构',
  sent: '机构已收到',
  confirmed: '机构已确认',
  dead: '通知失败，平台处理中',
};
