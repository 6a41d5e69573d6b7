/**
 * Times as staff and people read them: Asia/Shanghai (UTC+8, no daylight saving), whatever the
 * browser's or server's own time zone. Times are stored and sent as ISO UTC instants.
 */
const SHANGHAI_OFFSET_MS = 8 * 3600_000;

/** YYYY-MM-DD of the Shanghai calendar day containing `at` (ms since epoch). */
export function shanghaiDay(at: number = Date.now()): string {
  return new Date(at + SHANGHAI_OFFSET_MS).toISOString().slice(0, 10);
}

/** How much of the time `formatShanghai` shows. */
export type ShanghaiPrecision = 'day' | 'minute' | 'second';

/**
 * ISO instant → "2026-03-01 14:05" (precision 'minute', the default), "2026-03-01 14:05:09"
 * ('second') or "2026-03-01" ('day') in Asia/Shanghai; missing or unreadable → "—".
 */
export function formatShanghai(
  iso: string | null | undefined,
  precision: ShanghaiPrecision = 'minute',
): string {
  if (!iso) return '—';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '—';
  const s = new Date(t + SHANGHAI_OFFSET_MS).toISOString();
  if (precision === 'day') return s.slice(0, 10);
  return `${s.slice(0, 10)} ${s.slice(11, precision === 'second' ? 19 : 16)}`;
}
