import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BPS_WHOLE,
  bpsOf,
  bpsToPercentText,
  fenToYuanText,
  MAX_EXACT_FEN,
  percentTextToBps,
  shanghaiMonthOf,
  yuanTextToFen,
} from './money.ts';

fc.configureGlobal({ seed: 20261206, numRuns: 2_000 });

/** The rule written out with BigInt on its own terms: round(n / d) half away from zero. */
function oracle(fen: bigint, bps: bigint): bigint {
  const p = fen * bps;
  const q = p / 10_000n; // truncates toward zero
  const r = p - q * 10_000n;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice >= 10_000n) return p < 0n ? q - 1n : q + 1n;
  return q;
}

const amount = fc.integer({ min: -MAX_EXACT_FEN, max: MAX_EXACT_FEN });
const rate = fc.integer({ min: 0, max: BPS_WHOLE });

describe('bpsOf', () => {
  it('takes a rate of an amount, rounding half away from zero', () => {
    expect(bpsOf(10_000, 150)).toBe(150);
    expect(bpsOf(1_234_567, 150)).toBe(18_519); // 18 518.505
    expect(bpsOf(1, 5_000)).toBe(1); // 0.5 → 1
    expect(bpsOf(1, 4_999)).toBe(0); // 0.4999 → 0
    expect(bpsOf(3, 5_000)).toBe(2); // 1.5 → 2
    expect(bpsOf(-3, 5_000)).toBe(-2); // -1.5 → -2
    expect(bpsOf(-1, 4_999)).toBe(0); // never -0
    expect(Object.is(bpsOf(-1, 4_999), 0)).toBe(true);
    expect(bpsOf(0, 10_000)).toBe(0);
    expect(bpsOf(99, 10_000)).toBe(99);
    expect(bpsOf(7, 0)).toBe(0);
  });

  it('is exact at the largest amount promised, where floating point is not', () => {
    // (10^13 − 1) × 3 333 = 33 329 999 999 996 667 is past 2^53: a float product loses the last digits.
    expect(bpsOf(MAX_EXACT_FEN - 1, 3_333)).toBe(3_333_000_000_000); // 3 332 999 999 999.6667
    expect(bpsOf(MAX_EXACT_FEN - 1, 5_000)).toBe(5_000_000_000_000); // 4 999 999 999 999.5 → up
    expect(bpsOf(MAX_EXACT_FEN - 3, 5_000)).toBe(4_999_999_999_999); // …998.5 → 4 999 999 999 999
    expect(bpsOf(MAX_EXACT_FEN, 10_000)).toBe(MAX_EXACT_FEN);
    expect(bpsOf(-MAX_EXACT_FEN, 1)).toBe(-1_000_000_000);
    expect(bpsOf(Number.MAX_SAFE_INTEGER, 1)).toBe(900_719_925_474);
  });

  it('refuses what is not an integer and results outside the safe integers', () => {
    expect(() => bpsOf(1.5, 100)).toThrow(RangeError);
    expect(() => bpsOf(100, 0.5)).toThrow(RangeError);
    expect(() => bpsOf(Number.NaN, 100)).toThrow(RangeError);
    expect(() => bpsOf(Number.MAX_SAFE_INTEGER + 1, 1)).toThrow(RangeError);
    expect(() => bpsOf(Number.MAX_SAFE_INTEGER, 20_000)).toThrow(RangeError);
  });

  it('agrees with the rule written with BigInt for every amount and rate (property)', () => {
    fc.assert(
      fc.property(amount, fc.integer({ min: -20_000, max: 20_000 }), (fen, bps) => {
        expect(bpsOf(fen, bps)).toBe(Number(oracle(BigInt(fen), BigInt(bps))));
      }),
    );
  });

  it('is within half a fen of the exact share, symmetric in sign, monotone in the amount (property)', () => {
    fc.assert(
      fc.property(amount, rate, (fen, bps) => {
        const got = BigInt(bpsOf(fen, bps));
        // |got × 10 000 − fen × bps| ≤ 5 000: at most half a fen away.
        const diff = got * 10_000n - BigInt(fen) * BigInt(bps);
        expect((diff < 0n ? -diff : diff) <= 5_000n).toBe(true);
        expect(bpsOf(-fen, bps) + bpsOf(fen, bps)).toBe(0);
        expect(Object.is(bpsOf(-fen, bps), -0)).toBe(false);
        if (fen < MAX_EXACT_FEN) expect(bpsOf(fen + 1, bps)).toBeGreaterThanOrEqual(bpsOf(fen, bps));
        expect(Math.abs(bpsOf(fen, bps))).toBeLessThanOrEqual(Math.abs(fen));
      }),
    );
  });

  it('a whole and nothing: 10 000 bps is the amount, 0 bps is nothing (property)', () => {
    fc.assert(
      fc.property(amount, (fen) => {
        expect(bpsOf(fen, BPS_WHOLE)).toBe(fen);
        expect(bpsOf(fen, 0)).toBe(0);
      }),
    );
  });
});

describe('yuanTextToFen', () => {
  it('reads yuan exactly into integer fen', () => {
    expect(yuanTextToFen('12345.67')).toEqual({ fen: 1_234_567 });
    expect(yuanTextToFen('12,345.6')).toEqual({ fen: 1_234_560 });
    expect(yuanTextToFen('100')).toEqual({ fen: 10_000 });
    expect(yuanTextToFen('0.1')).toEqual({ fen: 10 });
    expect(yuanTextToFen('0.29')).toEqual({ fen: 29 }); // 0.29 × 100 is 28.999… in floating point
    expect(yuanTextToFen('1.')).toEqual({ fen: 100 });
    expect(yuanTextToFen('0')).toEqual({ fen: 0 });
    expect(yuanTextToFen('007.5')).toEqual({ fen: 750 });
    expect(yuanTextToFen(' ¥12,345.60 ')).toEqual({ fen: 1_234_560 });
    expect(yuanTextToFen('￥8000元')).toEqual({ fen: 800_000 });
    expect(yuanTextToFen('1,234,567.89 元')).toEqual({ fen: 123_456_789 });
    expect(yuanTextToFen('100000000000')).toEqual({ fen: MAX_EXACT_FEN });
  });

  it('refuses what is not an amount in yuan, with the reason', () => {
    expect(yuanTextToFen('-5')).toEqual({ problem: '金额「-5」不能为负数' });
    expect(yuanTextToFen('1.234')).toEqual({ problem: '金额「1.234」最多两位小数（元）' });
    for (const bad of ['12a', '1,2345', '12,34.5', '1e5', '', ' ', '.5', '1.2.3', '0x10', 'Infinity', '１２'])
      expect(yuanTextToFen(bad), bad).toMatchObject({ problem: expect.stringContaining('不是数字') });
    expect(yuanTextToFen('100000000000.01')).toEqual({ problem: '金额「100000000000.01」过大' });
    expect(yuanTextToFen('9'.repeat(40))).toMatchObject({ problem: expect.stringContaining('过大') });
  });

  it('takes a smaller ceiling when asked (the reconciliation file: 100 000 000 元)', () => {
    expect(yuanTextToFen('100000000', { maxFen: 10_000_000_000 })).toEqual({ fen: 10_000_000_000 });
    expect(yuanTextToFen('100000000.01', { maxFen: 10_000_000_000 })).toEqual({
      problem: '金额「100000000.01」过大',
    });
  });

  it('reads back every amount fenToYuanText writes, in every style (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_EXACT_FEN }), fc.boolean(), fc.boolean(), (fen, g, u) => {
        for (const trimZeroCents of [false, true]) {
          const text = fenToYuanText(fen, { grouping: g, unit: u, trimZeroCents });
          expect(yuanTextToFen(text)).toEqual({ fen });
        }
      }),
    );
  });

  it('agrees with reading the digits as a whole number of fen (property)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 99_999_999_999n }),
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: 0, max: 99 }),
        (yuan, decimals, cents) => {
          const fraction = decimals === 0 ? '' : String(cents).padStart(2, '0').slice(0, decimals);
          const text = decimals === 0 ? String(yuan) : `${yuan}.${fraction}`;
          const expected = yuan * 100n + BigInt(fraction.padEnd(2, '0') || '0');
          expect(yuanTextToFen(text)).toEqual({ fen: Number(expected) });
        },
      ),
    );
  });

  it('never throws and never answers a non-integer, whatever the text (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (text) => {
        const r = yuanTextToFen(text);
        if ('fen' in r) {
          expect(Number.isSafeInteger(r.fen)).toBe(true);
          expect(r.fen).toBeGreaterThanOrEqual(0);
        } else expect(r.problem).toMatch(/^金额「/);
      }),
    );
  });
});

describe('fenToYuanText', () => {
  it('writes plain yuan by default (ad platforms, form fields)', () => {
    expect(fenToYuanText(0)).toBe('0.00');
    expect(fenToYuanText(5)).toBe('0.05');
    expect(fenToYuanText(50)).toBe('0.50');
    expect(fenToYuanText(1_234_567)).toBe('12345.67');
    expect(fenToYuanText(-150)).toBe('-1.50');
    expect(fenToYuanText(MAX_EXACT_FEN)).toBe('100000000000.00');
  });

  it('groups thousands and names the unit as the console writes it', () => {
    const shown = { grouping: true, unit: true };
    expect(fenToYuanText(1_234_567, shown)).toBe('12,345.67 元');
    expect(fenToYuanText(5, shown)).toBe('0.05 元');
    expect(fenToYuanText(10_000_000_000, shown)).toBe('100,000,000.00 元');
    expect(fenToYuanText(-123_456, shown)).toBe('-1,234.56 元');
    expect(fenToYuanText(100_000, { grouping: true })).toBe('1,000.00');
  });

  it('drops zero cents when asked (the person’s record)', () => {
    const short = { grouping: true, unit: true, trimZeroCents: true };
    expect(fenToYuanText(2_000_000, short)).toBe('20,000 元');
    expect(fenToYuanText(1_234_567, short)).toBe('12,345.67 元');
    expect(fenToYuanText(0, short)).toBe('0 元');
    expect(fenToYuanText(-200, short)).toBe('-2 元');
  });

  it('cuts off a fraction of a fen and never writes -0', () => {
    expect(fenToYuanText(12.9)).toBe('0.12');
    expect(fenToYuanText(-0.4)).toBe('0.00');
    expect(fenToYuanText(-0)).toBe('0.00');
  });

  it('negative amounts read as the amount with a minus sign (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_EXACT_FEN }), (fen) => {
        expect(fenToYuanText(-fen)).toBe(`-${fenToYuanText(fen)}`);
        expect(fenToYuanText(fen)).toMatch(/^\d+\.\d{2}$/);
      }),
    );
  });
});

describe('percentages in basis points', () => {
  it('reads a percentage exactly', () => {
    expect(percentTextToBps('1.5')).toEqual({ bps: 150 });
    expect(percentTextToBps('12.34')).toEqual({ bps: 1_234 });
    expect(percentTextToBps('100')).toEqual({ bps: 10_000 });
    expect(percentTextToBps('0.01%')).toEqual({ bps: 1 });
    expect(percentTextToBps(' 3 ％')).toEqual({ bps: 300 });
    expect(percentTextToBps('0.29')).toEqual({ bps: 29 });
    expect(percentTextToBps('2.')).toEqual({ bps: 200 });
  });

  it('refuses what is not a percentage, with the reason', () => {
    expect(percentTextToBps('-1')).toEqual({ problem: '比例「-1」不能为负数' });
    expect(percentTextToBps('1.234')).toMatchObject({ problem: expect.stringContaining('最多两位小数') });
    for (const bad of ['', 'abc', '1e2', '.5', '1,5', '12345678'])
      expect(percentTextToBps(bad), bad).toMatchObject({ problem: expect.stringContaining('不是数字') });
  });

  it('writes basis points as the shortest exact percentage', () => {
    expect(bpsToPercentText(150)).toBe('1.5');
    expect(bpsToPercentText(1_234)).toBe('12.34');
    expect(bpsToPercentText(10_000)).toBe('100');
    expect(bpsToPercentText(1)).toBe('0.01');
    expect(bpsToPercentText(0)).toBe('0');
    expect(bpsToPercentText(-250)).toBe('-2.5');
  });

  it('reads back every rate it writes (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), (bps) => {
        expect(percentTextToBps(bpsToPercentText(bps))).toEqual({ bps });
      }),
    );
  });
});

describe('shanghaiMonthOf', () => {
  it('names the Shanghai month, which starts 8 hours before the UTC one', () => {
    expect(shanghaiMonthOf(new Date('2026-11-30T15:59:59.999Z'))).toBe('2026-11');
    expect(shanghaiMonthOf(new Date('2026-11-30T16:00:00Z'))).toBe('2026-12');
    expect(shanghaiMonthOf(new Date('2026-12-31T16:00:00Z'))).toBe('2027-01');
    expect(shanghaiMonthOf(new Date('2028-02-29T04:00:00Z'))).toBe('2028-02');
    expect(shanghaiMonthOf(new Date('2026-03-01T00:00:00+08:00'))).toBe('2026-03');
  });

  it('defaults to now', () => {
    const before = shanghaiMonthOf(new Date());
    const now = shanghaiMonthOf();
    expect([before, shanghaiMonthOf(new Date())]).toContain(now);
  });

  it('is the Shanghai wall-clock month of any instant (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 946_684_800_000, max: 4_102_444_800_000 }), (t) => {
        const wall = new Date(t + 8 * 3_600_000);
        const expected = `${wall.getUTCFullYear()}-${String(wall.getUTCMonth() + 1).padStart(2, '0')}`;
        expect(shanghaiMonthOf(new Date(t))).toBe(expected);
      }),
    );
  });
});
