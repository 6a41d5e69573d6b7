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
