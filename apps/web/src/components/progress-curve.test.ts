import { describe, expect, it } from 'vitest';
import { NAVIGATION_DELAY_MS } from '@/config/constants';
import { FINISH_MS, PENDING_CEILING, pendingPercent, progressAt } from './progress-curve';

describe('progressAt (issue 44.13: the ring ends with the work)', () => {
  it('starts at 0 and rises while the work runs, never reaching the ceiling', () => {
    expect(progressAt(0, null)).toBe(0);
    let last = -1;
    for (const t of [100, 500, 1000, 3000, 10_000, 60_000, 600_000]) {
      const p = progressAt(t, null);
      expect(p).toBeGreaterThanOrEqual(last);
      expect(p).toBeLessThan(PENDING_CEILING);
      last = p;
    }
    expect(progressAt(1000, null)).toBeGreaterThan(20);
  });

  it('is 100 only once the work answered, at most FINISH_MS later', () => {
    for (const doneAt of [0, 68, 120, 900, 5000]) {
      expect(progressAt(doneAt + FINISH_MS, doneAt)).toBe(100);
      expect(progressAt(doneAt + FINISH_MS + 1000, doneAt)).toBe(100);
      expect(progressAt(doneAt + FINISH_MS - 1, doneAt)).toBeLessThan(100);
      // Before the answer the ring is as if still waiting.
      expect(progressAt(doneAt - 1, doneAt)).toBe(progressAt(doneAt - 1, null));
    }
  });

  it('runs on from where it stood, without going back', () => {
    const doneAt = 700;
    let last = progressAt(doneAt, doneAt);
    expect(last).toBe(Math.floor(pendingPercent(doneAt)));
    expect(last).toBe(progressAt(doneAt - 1, null));
    for (let t = doneAt; t <= doneAt + FINISH_MS; t += 20) {
      const p = progressAt(t, doneAt);
      expect(p).toBeGreaterThanOrEqual(last);
      last = p;
    }
    expect(last).toBe(100);
  });

  it('reaches 100 within the navigation delay that follows the answer', () => {
    expect(FINISH_MS).toBeLessThanOrEqual(NAVIGATION_DELAY_MS);
  });

  it('treats a negative elapsed time as the start', () => {
    expect(progressAt(-50, null)).toBe(0);
  });
});
