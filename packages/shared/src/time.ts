/**
 * Times as staff and people read them: Asia/Shanghai (UTC+8, no daylight saving), whatever the
 * browser's or server's own time zone. Times are stored and sent as ISO UTC instants; "today" and
 * "calendar day" mean the Shanghai day. The one time module of the web, the console and the server
 * (the calendar day itself lives in shanghai-day.ts, re-exported here, so the H5's first screen can
 * take it alone).
 */
import { SHANGHAI_OFFSET_MS, shanghaiDay } from './shanghai-day.ts';

export { SHANGHAI_OFFSET_MS, shanghaiDay } from './shanghai-day.ts';

const DAY_MS = 86_400_000;

/** A wall-clock time of day "HH:MM" (00:00–23:59), e.g. a product's business hours. */
export const HHMM_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** `day` (YYYY-MM-DD) plus `n` calendar days (negative: before), YYYY-MM-DD. */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** YYYY-MM-DD of the Shanghai calendar day containing `at`. */
export function shanghaiDate(at: Date = new Date()): string {
  return shanghaiDay(at.getTime());
}

/** YYYYMMDD of the Shanghai calendar day containing `at` (file names, storage prefixes). */
export function shanghaiCompactDate(at: Date): string {
  return shanghaiDate(at).replaceAll('-', '');
}

/** Days since the epoch of the Shanghai calendar day containing `at`. */
export function shanghaiDayNumber(at: Date): number {
  return Math.floor((at.getTime() + SHANGHAI_OFFSET_MS) / DAY_MS);
}

/** The instant Shanghai day number `n` (days since the epoch) starts, i.e. its 00:00 Asia/Shanghai. */
export function startOfShanghaiDayNumber(n: number): Date {
  return new Date(n * DAY_MS - SHANGHAI_OFFSET_MS);
}

/** The instant the Shanghai calendar day containing `at` starts. */
export function startOfShanghaiDay(at: Date): Date {
  return startOfShanghaiDayNumber(shanghaiDayNumber(at));
}

/** The instant the Shanghai calendar day containing `at` ends (the next day's 00:00 Asia/Shanghai). */
export function endOfShanghaiDay(at: Date = new Date()): Date {
  return startOfShanghaiDayNumber(shanghaiDayNumber(at) + 1);
}

/** Shanghai calendar days from `from` to `to` (0 on the same day, negative when `to` is earlier). */
export function shanghaiDaysBetween(from: Date, to: Date): number {
  return shanghaiDayNumber(to) - shanghaiDayNumber(from);
}

/** Minutes after Shanghai midnight of `at` (0–1439). */
export function shanghaiMinuteOfDay(at: Date): number {
  const ms = (((at.getTime() + SHANGHAI_OFFSET_MS) % DAY_MS) + DAY_MS) % DAY_MS;
  return Math.floor(ms / 60_000);
}

/** The instant the Shanghai calendar day `day` (YYYY-MM-DD) starts; RangeError for anything else. */
export function shanghaiDayStart(day: string): Date {
  const t = Date.parse(`${day}T00:00:00Z`);
  if (!DAY_PATTERN.test(day) || Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== day) {
    throw new RangeError(`not a calendar day: ${day}`);
  }
  return new Date(t - SHANGHAI_OFFSET_MS);
}

/** [start, end) instants of the Shanghai calendar day `day` (YYYY-MM-DD); RangeError for anything else. */
export function shanghaiDayBounds(day: string): { start: Date; end: Date } {
  const start = shanghaiDayStart(day);
  return { start, end: new Date(start.getTime() + DAY_MS) };
}

/**
 * "2026-11-22 09:30" or "2026-11-22T09:30" (a datetime-local input's value), or a bare "2026-11-22"
 * (midnight), read on a Shanghai wall clock → the instant; RangeError for anything else.
 */
export function shanghaiWallTime(text: string): Date {
  const [day = '', time = '00:00'] = text.split(/[ T]/);
  const hhmm = HHMM_PATTERN.exec(time);
  if (!hhmm) throw new RangeError(`not a time of day: ${time}`);
  return new Date(shanghaiDayStart(day).getTime() + (Number(hhmm[1]) * 60 + Number(hhmm[2])) * 60_000);
}

/** "2026年11月22日": the Shanghai calendar day containing `at`, as agreements and notices write it. */
export function shanghaiDateText(at: Date): string {
  const [y, m, d] = shanghaiDate(at).split('-');
  return `${y}年${Number(m)}月${Number(d)}日`;
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
