import type { RumMetric, RumRating, VitalsGroupBy } from '@lm/shared/schemas/rum';

export const METRIC_LABELS: Record<RumMetric, string> = {
  LCP: 'LCP 最大内容绘制',
  INP: 'INP 交互到下一次绘制',
  CLS: 'CLS 累积布局偏移',
  TTFB: 'TTFB 首字节时间',
  FCP: 'FCP 首次内容绘制',
  CHUNK_ERROR: '脚本加载失败',
};

export const RATING_LABELS: Record<RumRating, string> = {
  good: '良好',
  'needs-improvement': '待改进',
  poor: '较差',
};

/** antd Tag colours of the ratings. */
export const RATING_COLORS: Record<RumRating, string> = {
  good: 'success',
  'needs-improvement': 'warning',
  poor: 'error',
};

export const GROUP_LABELS: Record<VitalsGroupBy, string> = {
  route: '页面路由',
  channel: '渠道',
  skin: '皮肤',
};

/** A metric value as people read it: CLS unitless (3 decimals), timings in ms or s. */
export function formatValue(metric: RumMetric, value: number): string {
  if (metric === 'CLS') return value.toFixed(3);
  if (metric === 'CHUNK_ERROR') return String(value);
  return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${Math.round(value)} ms`;
}

/** The group's label: a skin number as skinN, none as 「未知」. */
export function formatGroup(groupBy: VitalsGroupBy, group: string | null): string {
  if (group === null || group === '') return groupBy === 'channel' ? '（无渠道）' : '（未知）';
  return groupBy === 'skin' ? `skin${group}` : group;
}

/** 「≤ 2.5 s 良好，> 4 s 较差」 */
export function thresholdText(metric: RumMetric, t: { good: number; poor: number } | undefined): string {
  if (!t) return '';
  return `≤ ${formatValue(metric, t.good)} 良好，> ${formatValue(metric, t.poor)} 较差`;
}
