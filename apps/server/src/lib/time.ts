/** "Today" and "calendar day" mean Asia/Shanghai (UTC+8, no daylight saving). */
const SHANGHAI_OFFSET_MS = 8 * 3600_000;
const DAY_MS = 86_400_000;

/** The last day `shanghaiDate` named: [start, end) in epoch ms and its text (every click asks; ~0.7 µs a date). */
let dayStartMs = 0;
let dayEndMs = 0;
let dayText = '';

/** YYYY-MM-DD of the Shanghai calendar day containing `at`. */
export function shanghaiDate(at: Date = new Date()): string {
  const t = at.getTime();
  if (t >= dayStartMs && t < dayEndMs) return dayText;
  const shifted = t + SHANGHAI_OFFSET_MS;
  const text = new Date(shifted).toISOString().slice(0, 10);
  const start = shifted - (((shifted % DAY_MS) + DAY_MS) % DAY_MS) - SHANGHAI_OFFSET_MS;
  dayStartMs = start;
  dayEndMs = start + DAY_MS;
  dayText = text;
  return text;
}

/** The instant the Shanghai calendar day containing `at` ends. */
export function endOfShanghaiDay(at: Date = new Date()): Date {
  const shifted = at.getTime() + SHANGHAI_OFFSET_MS;
  const dayStart = shifted - (shifted % DAY_MS);
  return new Date(dayStart + DAY_MS - SHANGHAI_OFFSET_MS);
}

/** Days since the epoch of the Shanghai calendar day containing `at`. */
export function shanghaiDayNumber(at: Date): number {
  return Math.floor((at.getTime() + SHANGHAI_OFFSET_MS) / DAY_MS);
}

/** Shanghai calendar days from `from` to `to` (0 on the same day). */
export function shanghaiDaysBetween(from: Date, to: Date): number {
  return shanghaiDayNumber(to) - shanghaiDayNumber(from);
}

/** Minutes after Shanghai midnight. */
export function shanghaiMinuteOfDay(at: Date): number {
  const ms = (((at.getTime() + SHANGHAI_OFFSET_MS) % DAY_MS) + DAY_MS) % DAY_MS;
  return Math.floor(ms / 60_000);
}
