import { CHANNEL_COST_MODEL_LABELS, type ChannelCostModel, channelCostUnit } from '@lm/shared/ledger';
import { bpsToPercentText, fenToYuanText } from '@lm/shared/money';
import type { ChannelCost } from '@lm/shared/schemas/channel-costs';

const PER: Record<ChannelCostModel, string> = {
  cpc: '次点击',
  cpa_register: '个注册',
  cpa_lead: '条线索',
  rev_share: '',
  spend: '',
};

/** A cost row's value in words: `0.50 元 / 次点击`, `线索收入的 15%`, `按导入的投放消耗`. */
export function costText(c: Pick<ChannelCost, 'model' | 'amountFen' | 'bps'>): string {
  const unit = channelCostUnit(c.model);
  if (unit === 'none') return '按导入的投放消耗';
  if (unit === 'fen' && c.amountFen !== undefined)
    return `${fenToYuanText(c.amountFen, { grouping: true, unit: true })} / ${PER[c.model]}`;
  if (unit === 'bps' && c.bps !== undefined) return `线索收入的 ${bpsToPercentText(c.bps)}%`;
  return '金额不公开';
}

export const costModelText = (m: ChannelCostModel) => CHANNEL_COST_MODEL_LABELS[m];
