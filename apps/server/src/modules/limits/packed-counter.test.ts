import { describe, expect, it } from 'vitest';
import { counterCount, counterEnd, packCounter } from './packed-counter.ts';

const HOUR = 3600_000;

describe('a rate counter packed in a small integer (ADR 048)', () => {
  it('packs an hour window of a count below 1 024 into a Smi, its end kept to the second rounded down', () => {
    const now = Date.UTC(2026, 10, 29, 8, 0, 0, 250);
    for (const count of [0, 1, 600, 1023]) {
      const c = packCounter(count, now + HOUR, now);
      expect(typeof c).toBe('number');
      // A Smi on 64-bit V8 with pointer compression: a 31-bit signed integer.
      expect(Number.isInteger(c) && (c as number) >= 0 && (c as number) < 2 ** 30).toBe(true);
      expect(counterCount(c)).toBe(count);
      // Never later than asked: a refusal's wait is never longer than the window (never "2小时" for an hour).
      expect(counterEnd(c, now)).toBe(now + HOUR - 250);
      // Read later in the window, and after it, the end is the same instant.
      expect(counterEnd(c, now + HOUR / 2)).toBe(now + HOUR - 250);
      expect(counterEnd(c, now + 2 * HOUR)).toBe(now + HOUR - 250);
    }
  });

  it('reads the end across the wrap of its second counter, and an ended window days later as ended', () => {
    // A `now` whose second is just below a multiple of 2^20: the end's second wraps past zero.
    const wrapSecond = 2 ** 20 * 1700;
    const now = (wrapSecond - 10) * 1000;
    const c = packCounter(7, now + HOUR, now);
    expect(counterEnd(c, now)).toBe(now + HOUR);
    expect(counterEnd(c, now + HOUR - 1)).toBeGreaterThan(now + HOUR - 1);
    expect(counterEnd(c, now + 5 * 24 * HOUR)).toBeLessThanOrEqual(now + 5 * 24 * HOUR);
  });

  it('keeps an object for what does not fit: a count of 1 024 or more, a negative one, a window of a week', () => {
    const now = 1_795_000_000_000;
    for (const [count, end] of [
      [1024, now + HOUR],
      [-1, now + HOUR],
      [2.5, now + HOUR],
      [3, now + 7 * 24 * HOUR],
      [3, now - 5_000],
    ] as const) {
      const c = packCounter(count, end, now);
      expect(c).toEqual({ count, expiresAt: end });
      expect(counterCount(c)).toBe(count);
      expect(counterEnd(c, now)).toBe(end);
    }
  });
});
