/** The console's one Asia/Shanghai formatter (packages/shared). */
export { formatShanghai } from '@lm/shared/time';

/** How long a lead has waited: "45 秒", "12 分钟", "3 小时 5 分", "2 天 4 小时"; null → "—". */
export function ageText(seconds: number | null): string {
  if (seconds === null) return '—';
  if (seconds < 60) return `${seconds} 秒`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} 分钟`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} 小时 ${minutes % 60} 分` : `${hours} 小时`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} 天 ${hours % 24} 小时` : `${days} 天`;
}

/** A pending lead older than this is flagged (the worker should have sent it long ago). */
export const STALE_PENDING_SECONDS = 30 * 60;

export const OUTCOME_TEXT: Record<string, string> = {
  delivered: '成功',
  duplicate: '机构已有',
  retry: '失败待重试',
  dead: '失败已停止',
};

export const OUTCOME_COLOR: Record<string, string> = {
  delivered: 'success',
  duplicate: 'success',
  retry: 'warning',
  dead: 'error',
};
