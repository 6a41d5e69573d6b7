/** "Today" and "calendar day" mean Asia/Shanghai (UTC+8, no daylight saving). */
const SHANGHAI_OFFSET_MS = 8 * 3600_000;

/** YYYY-MM-DD of the Shanghai calendar day containing `at`. */
export function shanghaiDate(at: Date = new Date()): string {
  return new Date(at.getTime() + SHANGHAI_OFFSET_MS).toISOString().slice(0, 10);
}

/** The instant the Shanghai calendar day containing `at` ends. */
export function endOfShanghaiDay(at: Date = new Date()): Date {
  const shifted = at.getTime() + SHANGHAI_OFFSET_MS;
  const dayStart = shifted - (shifted % 86_400_000);
  return new Date(dayStart + 86_400_000 - SHANGHAI_OFFSET_MS);
}

const DAY_MS = 86_400_000;

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
