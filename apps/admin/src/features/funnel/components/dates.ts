const SHANGHAI_OFFSET_MS = 8 * 3600_000;

/** Today's date in Shanghai (the server's "today"), whatever the browser's time zone. */
export function shanghaiToday(now: number = Date.now()): string {
  return new Date(now + SHANGHAI_OFFSET_MS).toISOString().slice(0, 10);
}

/** `day` plus `n` days, YYYY-MM-DD. */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}
