import { describe, expect, it } from 'vitest';
import { endOfShanghaiDay, shanghaiDate } from './time.ts';

describe('shanghaiDate', () => {
  it('names the Shanghai day, which starts at 16:00 UTC the day before', () => {
    expect(shanghaiDate(new Date('2026-11-28T15:59:59.999Z'))).toBe('2026-11-28');
    expect(shanghaiDate(new Date('2026-11-28T16:00:00.000Z'))).toBe('2026-11-29');
    expect(shanghaiDate(new Date('2026-11-29T15:59:59.999Z'))).toBe('2026-11-29');
  });

  it('answers every instant right whichever day it named last (the remembered day is never stale)', () => {
    const instants = [
      '2026-11-28T16:00:00.000Z',
      '2026-11-28T15:59:59.999Z',
      '2026-11-29T15:59:59.999Z',
      '2026-11-29T16:00:00.000Z',
      '2026-11-28T16:00:00.001Z',
      '1969-12-31T15:59:59.999Z',
      '1969-12-31T16:00:00.000Z',
      '2026-12-31T16:00:00.000Z',
      '2026-12-31T15:59:59.999Z',
    ];
    const plain = (at: Date) => new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 10);
    for (let round = 0; round < 3; round++)
      for (const iso of instants) {
        const at = new Date(iso);
        expect(shanghaiDate(at), iso).toBe(plain(at));
      }
  });

  it('agrees with the day endOfShanghaiDay ends', () => {
    const at = new Date('2026-11-28T03:04:05Z');
    const end = endOfShanghaiDay(at);
    expect(shanghaiDate(new Date(end.getTime() - 1))).toBe(shanghaiDate(at));
    expect(shanghaiDate(end)).not.toBe(shanghaiDate(at));
  });

  it('throws on an invalid date, as before', () => {
    expect(() => shanghaiDate(new Date(Number.NaN))).toThrow(RangeError);
  });
});
