/**
 * Dates of the daily news by the Shanghai calendar (whatever the device's time zone): day keys, the
 * "今天 / 昨天 / 11月20日 星期五" labels and grouping a newest-first list by day.
 */
import { addDays, shanghaiClock, shanghaiDay } from '@lm/shared/time';

const WEEKDAYS = ['星期日', '星期一', '星期二', '星期三', '星期四', '星期五', '星期六'];

/** 'YYYY-MM-DD' of an ISO time in Shanghai. */
export function shanghaiDayOf(iso: string): string {
  return shanghaiDay(Date.parse(iso));
}

/** The day before a 'YYYY-MM-DD' day. */
export function previousDay(day: string): string {
  return addDays(day, -1);
}

/** '今天', '昨天', '11月20日 星期五', or with the year when it is not this year's. */
export function dayLabel(day: string, today: string): string {
  if (day === today) return '今天';
  if (day === previousDay(today)) return '昨天';
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const weekday = WEEKDAYS[new Date(Date.UTC(y, m - 1, d)).getUTCDay()];
  const date = `${m}月${d}日`;
  return day.slice(0, 4) === today.slice(0, 4) ? `${date} ${weekday}` : `${y}年${date}`;
}

export interface DayGroup<T> {
  day: string;
  label: string;
  items: T[];
}

/** Items grouped by their Shanghai day, groups in order of first appearance, items kept in order. */
export function groupByDay<T extends { publishedAt: string }>(
  items: readonly T[],
  now: number = Date.now(),
): DayGroup<T>[] {
  const today = shanghaiDay(now);
  const groups = new Map<string, DayGroup<T>>();
  for (const item of items) {
    const day = shanghaiDayOf(item.publishedAt);
    let group = groups.get(day);
    if (!group) {
      group = { day, label: dayLabel(day, today), items: [] };
      groups.set(day, group);
    }
    group.items.push(item);
  }
  return [...groups.values()];
}

/** '09:00' in Shanghai. */
export function timeOfDay(iso: string): string {
  return publishedText(iso).slice(-5);
}

/** '2026年11月22日 09:00' in Shanghai. */
export function publishedText(iso: string): string {
  const shifted = shanghaiClock(Date.parse(iso));
  const y = shifted.getUTCFullYear();
  const m = shifted.getUTCMonth() + 1;
  const d = shifted.getUTCDate();
  const hh = String(shifted.getUTCHours()).padStart(2, '0');
  const mm = String(shifted.getUTCMinutes()).padStart(2, '0');
  return `${y}年${m}月${d}日 ${hh}:${mm}`;
}

/** The header line of the index: '11月22日 星期日' for today in Shanghai. */
export function todayHeading(now: number = Date.now()): string {
  const today = shanghaiDay(now);
  const [, m, d] = today.split('-').map(Number) as [number, number, number];
  const weekday = WEEKDAYS[new Date(`${today}T00:00:00Z`).getUTCDay()];
  return `${m}月${d}日 ${weekday}`;
}
