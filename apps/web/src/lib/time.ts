/** China has had no daylight saving time since 1991: Asia/Shanghai is always UTC+8. */
const SHANGHAI_OFFSET_MS = 8 * 3600_000;

/** The calendar date in Asia/Shanghai, 'YYYY-MM-DD', whatever the device's time zone. */
export function shanghaiDate(now: number = Date.now()): string {
  return new Date(now + SHANGHAI_OFFSET_MS).toISOString().slice(0, 10);
}
