/** Words and numbers of a lender's outcomes (机构反馈) in the console. */

/** One decimal, without a trailing ".0": 1.5 → "1.5", 2 → "2". */
function oneDecimal(v: number): string {
  const r = Math.round(v * 10) / 10;
  return Number.isInteger(r) ? String(r) : r.toFixed(1);
}

/**
 * Seconds as a reader thinks of a lender's latency: "不到 1 分钟", "42 分钟", "3.5 小时", "2 天"; null → "—".
 * Minutes below an hour, hours below a day, days from there.
 */
export function latencyText(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '—';
  if (seconds < 60) return '不到 1 分钟';
  // Rounded first, so 59 min 50 s reads "1 小时", not "60 分钟".
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} 分钟`;
  const hours = Math.round((seconds / 3600) * 10) / 10;
  if (hours < 24) return `${oneDecimal(hours)} 小时`;
  return `${oneDecimal(seconds / 86_400)} 天`;
}
