/**
 * Times as staff and people read them: Asia/Shanghai (UTC+8, no daylight saving), whatever the
 * browser's or server's own time zone. Times are stored and sent as ISO UTC instants. The one time
 * module of the apps (the calendar day itself lives in shanghai-day.ts, re-exported here).
 */
import { SHANGHAI_OFFSET_MS } from './shanghai-day.ts';

export { SHANGHAI_OFFSET_MS, shanghaiDay } from './shanghai-day.ts';

const DAY_MS = 86_400_000;

/** A wall-clock time of day "HH:MM" (00:00–23:59), e.g. a product's business hours. */
export const HHMM_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** `day` (YYYY-MM-DD) plus `n` calendar days (negative: before), YYYY-MM-DD. */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** The fields of `at` read on a Shanghai wall clock (use the getUTC… methods of the result). */
export function shanghaiClock(at: number): Date {
  return new Date(at + SHANGHAI_OFFSET_MS);
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
