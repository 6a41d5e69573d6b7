/**
 * The Asia/Shanghai calendar day, alone: the H5's first screen needs only this (channel route codes,
 * daily analytics), so it is a leaf of its own and the rest of time.ts stays out of the entry chunk.
 */

/** China has had no daylight saving time since 1991: Asia/Shanghai is always UTC+8. */
export const SHANGHAI_OFFSET_MS = 8 * 3600_000;

/** YYYY-MM-DD of the Shanghai calendar day containing `at` (ms since epoch). */
export function shanghaiDay(at: number = Date.now()): string {
  return new Date(at + SHANGHAI_OFFSET_MS).toISOString().slice(0, 10);
}
