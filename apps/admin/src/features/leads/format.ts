import { OUTCOME_DETAIL_LABELS, OUTCOME_LABELS, type OutcomeStatus } from '@lm/shared/outcomes';
import { applicationFieldLabel } from '@lm/shared/schemas/admin-catalog';
import type { AdminLeadStatus, RevealField } from '@lm/shared/schemas/admin-leads';

/** Staff-facing words of the people / leads pages (Chinese console copy). */

/** The console's one Asia/Shanghai formatter (packages/shared). */
export { formatShanghai } from '@lm/shared/time';

export const LEAD_STATUS_TEXT: Record<AdminLeadStatus, string> = {
  pending: '待发送',
  delivered: '已送达',
  dead: '发送失败',
  redirect: '跳转机构页面',
  awaiting_callback: '等待机构回调',
  withdrawn: '用户已撤回',
  discarded: '已放弃',
};

export const LEAD_STATUS_COLOR: Record<AdminLeadStatus, string> = {
  pending: 'processing',
  delivered: 'success',
  dead: 'error',
  redirect: 'cyan',
  awaiting_callback: 'gold',
  withdrawn: 'default',
  discarded: 'default',
};

export const LEAD_MODE_TEXT: Record<string, string> = {
  api: 'API 推送',
  h5Redirect: 'H5 跳转',
  callback: '匹配回调',
  jointLogin: '联合登录',
  none: '不发送',
};

export const ATTEMPT_OUTCOME_TEXT: Record<string, string> = {
  delivered: '成功',
  duplicate: '机构已有（视为成功）',
  retry: '失败，稍后重试',
  dead: '失败，停止重试',
};

/**
 * A lead's outcome as its lender reported it (issue 47.6): the person's word and, where it differs, the lender's —
 * "已授信", "未通过（审批拒绝）"; null (nothing reported) → "申请中（未反馈）".
 */
export function outcomeText(outcome: OutcomeStatus | null): string {
  const key = outcome ?? 'pending';
  const label = OUTCOME_LABELS[key];
  const detail = OUTCOME_DETAIL_LABELS[key];
  return label === detail ? label : `${label}（${detail}）`;
}

export const LEAD_OUTCOME_COLOR: Record<OutcomeStatus | 'pending', string> = {
  pending: 'default',
  received: 'processing',
  duplicate: 'warning',
  approved: 'cyan',
  declined: 'error',
  funded: 'success',
};

export const USER_STATUS_TEXT: Record<string, string> = { active: '正常', cancelled: '已注销' };

/** users.userInfoStatus. */
export const USER_INFO_STATUS_TEXT: Record<number, string> = {
  0: '未提交资料',
  1: '已提交，未授权',
  2: '已授权',
};

export const MATCH_SOURCE_TEXT: Record<string, string> = {
  form: '提交表单',
  auto: '自动表单',
  direct: '直接匹配',
};

/** Spec §3 match type 1–6. */
export const MATCH_TYPE_TEXT: Record<number, string> = {
  1: '默认',
  2: 'CRM 补偿',
  3: 'CRM 强制进件',
  4: '整车',
  5: '轮车',
  6: '二次匹配',
};

export const OFFER_STATUS_TEXT: Record<string, string> = {
  offered: '待授权',
  consented: '已授权',
  declined: '未授权',
  released: '已失效',
};

export const NOTICE_KIND_TEXT: Record<string, string> = {
  deletion: '删除请求（注销）',
  withdrawal: '撤回授权通知',
};

export const NOTICE_STATUS_TEXT: Record<string, string> = {
  pending: '待发送',
  sent: '已送达',
  confirmed: '机构已确认',
  dead: '发送失败',
};

export const FACE_STATUS_TEXT: Record<number, string> = { 0: '未认证', 1: '认证失败', 2: '认证通过' };

/** Contact relationship codes (spec §3). */
export const RELATIONSHIP_TEXT: Record<string, string> = {
  '0': '父母',
  '1': '兄弟姐妹',
  '2': '同事',
  '3': '朋友',
  '4': '其他',
};

export const REVEAL_FIELD_TEXT: Record<RevealField, string> = {
  mobile: '手机号',
  realName: '真实姓名',
  identity: '身份证号',
  contacts: '紧急联系人',
};

/** A consented field's name in Chinese (the application form's labels plus the phone number). */
export function fieldText(key: string): string {
  return key === 'mobile' ? '手机号' : applicationFieldLabel(key);
}

/** "{delivered: 2, dead: 1}" → "已送达 2 · 发送失败 1"; none → "—". */
export function leadCountsText(counts: Record<string, number>): string {
  const parts = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${LEAD_STATUS_TEXT[s as AdminLeadStatus] ?? s} ${n}`);
  return parts.length ? parts.join(' · ') : '—';
}

/** Whether a deletion notice passed its deadline without the lender's confirmation. */
export function noticeOverdue(n: { kind: string; status: string; dueAt: string | null }, now = Date.now()) {
  return n.kind === 'deletion' && n.status !== 'confirmed' && n.dueAt !== null && Date.parse(n.dueAt) < now;
}
