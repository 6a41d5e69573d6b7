/**
 * A rate counter (its count and its window's end) as one small integer when it fits (ADR 048): V8 keeps such a
 * number in the map's own slot, so the counters of a million addresses are not a million objects for every
 * collection of the old generation to mark. A full collection with 450 000 counters took 88–113 ms with an
 * object each and 29–50 ms packed (heap 64 → 37 MB; a scratch run, `node --expose-gc`).
 *
 * Packed: `(end second mod 2²⁰) × 1024 + count`, below 2³⁰ (a Smi). It fits a count below 1 024 and a window that
 * ends less than 2¹⁹ s (~6 days) after it is packed; anything else stays an object. The end is kept to the second,
 * rounded down: a window ends up to a second early, never late, so the wait a refusal names ("请1小时后再试" for
 * an hour's window) is never longer than the window. An ended counter must be dropped within ~6 days (the store's
 * sweep does it every minute): read later, its end would seem to come round again.
 */
export type PackedCounter = number | { count: number; expiresAt: number };

const COUNT_SPAN = 1024;
const SECOND_SPAN = 2 ** 20;
const AHEAD_MAX = 2 ** 19;

/** The counter of `count` in a window ending at `expiresAt` (ms), packed at `now` (ms) when it fits. */
export function packCounter(count: number, expiresAt: number, now: number): PackedCounter {
  const end = Math.floor(expiresAt / 1000);
  const ahead = end - Math.floor(now / 1000);
  if (Number.isInteger(count) && count >= 0 && count < COUNT_SPAN && ahead >= 0 && ahead < AHEAD_MAX)
    return (end % SECOND_SPAN) * COUNT_SPAN + count;
  return { count, expiresAt };
}

export function counterCount(c: PackedCounter): number {
  return typeof c === 'number' ? c % COUNT_SPAN : c.count;
}

/** The window's end (ms) of a counter read at `now` (ms), within ~6 days of its end. */
export function counterEnd(c: PackedCounter, now: number): number {
  if (typeof c !== 'number') return c.expiresAt;
  const nowSecond = Math.floor(now / 1000);
  const ahead = (((Math.floor(c / COUNT_SPAN) - nowSecond) % SECOND_SPAN) + SECOND_SPAN) % SECOND_SPAN;
  // Less than half the span ahead: it ends then; otherwise it ended that much less the span ago.
  return (ahead < AHEAD_MAX ? nowSecond + ahead : nowSecond + ahead - SECOND_SPAN) * 1000;
}
