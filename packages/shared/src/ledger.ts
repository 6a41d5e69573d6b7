/**
 * Money beyond prices (issue 48, ADR 073), zod-free: ledger kinds, channel cost models, return reasons and
 * statuses with their Chinese words. The console and the server both read them from here.
 */

/** What a ledger entry is. */
export const LEDGER_KINDS = ['lead_revenue', 'return', 'channel_cost', 'payout', 'adjustment'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];
export const LEDGER_KIND_LABELS: Record<LedgerKind, string> = {
  lead_revenue: '线索收入',
  return: '退回冲减',
  channel_cost: '渠道成本',
  payout: '结算付款',
  adjustment: '手工调整',
};

/** Whose account an entry is on. */
export const PARTY_TYPES = ['lender', 'channel'] as const;
export type PartyType = (typeof PARTY_TYPES)[number];
export const PARTY_TYPE_LABELS: Record<PartyType, string> = { lender: '机构', channel: '渠道' };

/**
 * What a channel costs (issue 48.2): cpc fen per counted click; cpa_register fen per registration; cpa_lead
 * fen per lead (a consented lead to a lender); rev_share bps of the lead revenue its people bring; spend: the
 * spend imported from the ad platform's daily report.
 */
export const CHANNEL_COST_MODELS = ['cpc', 'cpa_register', 'cpa_lead', 'rev_share', 'spend'] as const;
export type ChannelCostModel = (typeof CHANNEL_COST_MODELS)[number];
export const CHANNEL_COST_MODEL_LABELS: Record<ChannelCostModel, string> = {
  cpc: '按点击 CPC',
  cpa_register: '按注册 CPA',
  cpa_lead: '按线索 CPA',
  rev_share: '收入分成',
  spend: '按投放消耗（导入）',
};
export const CHANNEL_COST_MODEL_BASIS: Record<ChannelCostModel, string> = {
  cpc: '每个计数点击（同一设备每天一次）',
  cpa_register: '每个新注册用户',
  cpa_lead: '每条授权推送给机构的线索',
  rev_share: '该渠道用户带来的线索收入的比例',
  spend: '广告平台日报中的消耗',
};
/** Whether a channel cost model is priced in fen (cpc, cpa_*), in bps (rev_share) or by import (spend). */
export function channelCostUnit(model: ChannelCostModel): 'fen' | 'bps' | 'none' {
  if (model === 'rev_share') return 'bps';
  if (model === 'spend') return 'none';
  return 'fen';
}

/** Why a lender returns a lead (issue 48.4). */
export const RETURN_REASONS = ['duplicate', 'invalid_phone', 'out_of_area', 'fraud', 'other'] as const;
export type ReturnReason = (typeof RETURN_REASONS)[number];
export const RETURN_REASON_LABELS: Record<ReturnReason, string> = {
  duplicate: '重复线索',
  invalid_phone: '手机号无效',
  out_of_area: '不在服务区域',
  fraud: '疑似欺诈',
  other: '其他',
};

/** accepted: reversed in the ledger; disputed: waits for staff; rejected: staff refused it (nothing reversed). */
export const RETURN_STATUSES = ['accepted', 'disputed', 'rejected'] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];
export const RETURN_STATUS_LABELS: Record<ReturnStatus, string> = {
  accepted: '已退回',
  disputed: '待审核',
  rejected: '已驳回',
};

/** A statement's month: open (still booking) or closed (frozen; later events go to the next open month). */
export const STATEMENT_STATUSES = ['open', 'closed'] as const;
export type StatementStatus = (typeof STATEMENT_STATUSES)[number];
export const STATEMENT_STATUS_LABELS: Record<StatementStatus, string> = { open: '未关账', closed: '已关账' };

/** `YYYY-MM`: a Shanghai month of the years 2000–2099 (the books of this business; no year 0). */
export const MONTH_PATTERN = /^20\d{2}-(0[1-9]|1[0-2])$/;
