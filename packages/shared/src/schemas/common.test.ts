import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INT4_MAX, integerRangePattern } from './common.ts';

describe('integerRangePattern', () => {
  it('matches exactly the integers of the range, written without leading zeros', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: INT4_MAX }),
        fc.integer({ min: 0, max: INT4_MAX }),
        fc.integer({ min: 0, max: INT4_MAX }),
        (a, b, n) => {
          const [min, max] = a <= b ? [a, b] : [b, a];
          const re = new RegExp(integerRangePattern(min, max));
          for (const x of [n, min, max, min - 1, max + 1, Math.floor((min + max) / 2)]) {
            if (x < 0) continue;
            expect(re.test(String(x)), `${x} in [${min}, ${max}]`).toBe(x >= min && x <= max);
          }
          expect(re.test(`0${max}`)).toBe(false);
          expect(re.test('')).toBe(false);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('covers the ranges the API uses', () => {
    const page = new RegExp(integerRangePattern(1, 10_000));
    expect(['1', '9', '10', '999', '10000'].every((v) => page.test(v))).toBe(true);
    expect(['0', '10001', '01', '-1', '1.0', ' 1', 'x'].some((v) => page.test(v))).toBe(false);
    const placement = new RegExp(integerRangePattern(0, 7));
    expect(['0', '7'].every((v) => placement.test(v))).toBe(true);
    expect(placement.test('8')).toBe(false);
  });
});
