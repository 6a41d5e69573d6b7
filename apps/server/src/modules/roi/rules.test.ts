import type { FunnelArmsData } from '@lm/shared/schemas/funnel';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareArm } from '../funnel/rules.ts';
import {
  abTestOf,
  aggregateRoi,
  allocateCosts,
  costPerLeadOf,
  divideRounded,
  largestRemainder,
  type RoiFact,
  revenuePerVisitorOf,
  roiBpsOf,
  runsAbTest,
  withoutAmounts,
} from './rules.ts';

const skins: Record<string, number> = { a: 17, b: 8 };
const defaultSkinOf = (code: string | null) => (code === null ? null : (skins[code] ?? null));
const names = new Map([
  ['a', '渠道A'],
  ['b', '渠道B'],
]);

describe('divideRounded: half away from zero, exact', () => {
  it('rounds halves away from zero on both signs', () => {
    expect(divideRounded(3, 2)).toBe(2);
    expect(divideRounded(-3, 2)).toBe(-2);
    expect(divideRounded(3, -2)).toBe(-2);
    expect(divideRounded(-3, -2)).toBe(2);
    expect(divideRounded(5, 4)).toBe(1); // 1.25
    expect(divideRounded(7, 4)).toBe(2); // 1.75
    expect(divideRounded(-5, 4)).toBe(-1);
    expect(divideRounded(-7, 4)).toBe(-2);
    expect(divideRounded(1, 3)).toBe(0);
    expect(Object.is(divideRounded(-1, 3), 0)).toBe(true); // never −0
    expect(divideRounded(0, 7)).toBe(0);
  });
  it('is exact beyond 2^53 intermediates and refuses a zero divisor', () => {
    // 9 007 199 254 740 991 × 10 000 overflows a double's exact range; BigInt keeps it.
    expect(divideRounded(BigInt(Number.MAX_SAFE_INTEGER) * BigInt(10_000), 10_000)).toBe(
      Number.MAX_SAFE_INTEGER,
    );
    expect(() => divideRounded(1, 0)).toThrow(RangeError);
  });
  it('agrees with a BigInt oracle on random input', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e12, max: 1e12 }),
        fc.integer({ min: 1, max: 1e9 }),
        fc.boolean(),
        (n, d, neg) => {
          const den = neg ? -d : d;
          const got = divideRounded(n, den);
          // |n/d − got| ≤ 1/2 exactly: |2n − 2·got·d| ≤ |d|
          const diff = BigInt(2) * BigInt(n) - BigInt(2) * BigInt(got) * BigInt(den);
          const abs = diff < 0 ? -diff : diff;
          expect(abs <= BigInt(Math.abs(den))).toBe(true);
          // on an exact half, away from zero
          if (abs === BigInt(Math.abs(den)) && n !== 0)
            expect(Math.abs(got)).toBe(Math.ceil(Math.abs(n / den)));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('roi, cost per lead, revenue per visitor', () => {
  it('roiBps = margin × 10 000 / cost, half away from zero; null without cost', () => {
    expect(roiBpsOf(5_000, 10_000)).toBe(5_000); // +50 %
    expect(roiBpsOf(-10_000, 10_000)).toBe(-10_000); // −100 %
    expect(roiBpsOf(1, 3)).toBe(3_333); // 3333.33…
    expect(roiBpsOf(2, 3)).toBe(6_667); // 6666.67
    expect(roiBpsOf(1, 20_000)).toBe(1); // 0.5 bp → 1
    expect(roiBpsOf(-1, 20_000)).toBe(-1); // −0.5 bp → −1
    expect(roiBpsOf(1, 20_001)).toBe(0);
    expect(roiBpsOf(0, 0)).toBeNull();
    expect(roiBpsOf(12_345, 0)).toBeNull();
    // A negative cost (a channel's credit larger than its spend) still divides exactly.
    expect(roiBpsOf(300, -100)).toBe(-30_000);
  });
  it('costPerLead = cost / leads, half away from zero; null without leads', () => {
    expect(costPerLeadOf(10_000, 3)).toBe(3_333);
    expect(costPerLeadOf(10_001, 2)).toBe(5_001); // 5000.5 → 5001
    expect(costPerLeadOf(-10_001, 2)).toBe(-5_001);
    expect(costPerLeadOf(0, 5)).toBe(0);
    expect(costPerLeadOf(10_000, 0)).toBeNull();
  });
  it('revenue per visitor is net of returns; null without clicks', () => {
    expect(revenuePerVisitorOf(10_000, 2_500, 3)).toBe(2_500);
    expect(revenuePerVisitorOf(1, 0, 2)).toBe(1); // 0.5 → 1
    expect(revenuePerVisitorOf(0, 0, 0)).toBeNull();
  });
});

describe('largest-remainder split', () => {
  it('splits in proportion with whole fen, leftovers to the largest remainders', () => {
    expect(largestRemainder(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(largestRemainder(10, [3, 3, 4])).toEqual([3, 3, 4]);
    expect(largestRemainder(11, [3, 3, 4])).toEqual([3, 3, 5]); // 3.3, 3.3, 4.4 → the .4 gets it
    expect(largestRemainder(7, [1, 0, 1])).toEqual([4, 0, 3]); // zero weight gets nothing
    expect(largestRemainder(0, [5, 5])).toEqual([0, 0]);
    expect(largestRemainder(1, [1, 2])).toEqual([0, 1]); // .33 vs .67
    expect(largestRemainder(1, [1, 1])).toEqual([1, 0]); // a tie: the earlier
    expect(largestRemainder(5, [1, 1, 2])).toEqual([1, 1, 3]); // 1.25, 1.25, 2.5: the half to the larger weight
    expect(largestRemainder(2, [1, 2, 1])).toEqual([1, 1, 0]); // .5, 1, .5: the tie of equal weights → the earlier
  });
  it('mirrors negative totals', () => {
    expect(largestRemainder(-100, [1, 1, 1])).toEqual([-34, -33, -33]);
    expect(largestRemainder(-1, [1, 2])).toEqual([0, -1]);
  });
  it('refuses nothing to split by and bad input', () => {
    expect(() => largestRemainder(100, [])).toThrow(RangeError);
    expect(() => largestRemainder(100, [0, 0])).toThrow(RangeError);
    expect(() => largestRemainder(100, [1, -1])).toThrow(RangeError);
    expect(() => largestRemainder(1.5, [1])).toThrow(RangeError);
  });
  it('always sums exactly to the whole, each part within one fen of its exact share', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e13, max: 1e13 }),
        fc.array(fc.integer({ min: 0, max: 1e6 }), { minLength: 1, maxLength: 12 }),
        (total, weights) => {
          fc.pre(weights.some((w) => w > 0));
          const parts = largestRemainder(total, weights);
          expect(parts).toHaveLength(weights.length);
          expect(parts.reduce((a, b) => a + b, 0)).toBe(total);
          const sum = BigInt(weights.reduce((a, b) => a + b, 0));
          parts.forEach((p, i) => {
            expect(Number.isSafeInteger(p)).toBe(true);
            if (weights[i] === 0) expect(p).toBe(0);
            // |p·sum − total·w| < sum  ⇔ within one fen of the exact share
            const d = BigInt(p) * sum - BigInt(total) * BigInt(weights[i]!);
            expect((d < 0 ? -d : d) < sum).toBe(true);
          });
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('cost allocation over skins', () => {
  it("splits a channel-day's cost by that channel-day's clicks per skin, summing exactly", () => {
    const facts: RoiFact[] = [
      { channelCode: 'a', day: '2025-03-01', skin: 8, clicks: 1 },
      { channelCode: 'a', day: '2025-03-01', skin: 9, clicks: 2 },
      { channelCode: 'a', day: '2025-03-01', skin: null, costFen: 100 },
      { channelCode: 'a', day: '2025-03-01', skin: null, costFen: 1 }, // two entries, one channel-day
      // another day's clicks do not weigh on this day
      { channelCode: 'a', day: '2025-03-02', skin: 8, clicks: 100 },
    ];
    const out = allocateCosts(facts, defaultSkinOf).filter((f) => f.costFen);
    expect(out).toEqual([
      { channelCode: 'a', day: '2025-03-01', skin: 8, costFen: 34 }, // 33.67
      { channelCode: 'a', day: '2025-03-01', skin: 9, costFen: 67 }, // 67.33
    ]);
  });
  it("a channel-day without clicks keeps its cost on the channel's own skin; clicks without a skin take it", () => {
    const out = allocateCosts(
      [
        { channelCode: 'a', day: '2025-03-01', skin: null, costFen: 500 },
        { channelCode: 'b', day: '2025-03-01', skin: null, clicks: 2 },
        { channelCode: 'b', day: '2025-03-01', skin: 9, clicks: 2 },
        { channelCode: 'b', day: '2025-03-01', skin: null, costFen: 3 },
        { channelCode: 'zz', day: '2025-03-01', skin: null, costFen: 7 }, // unknown channel, no clicks
      ],
      defaultSkinOf,
    ).filter((f) => f.costFen);
    expect(out).toEqual([
      { channelCode: 'a', day: '2025-03-01', skin: 17, costFen: 500 },
      { channelCode: 'b', day: '2025-03-01', skin: 8, costFen: 2 }, // 1.5 each: tie → the earlier (skin 8)
      { channelCode: 'b', day: '2025-03-01', skin: 9, costFen: 1 },
      { channelCode: 'zz', day: '2025-03-01', skin: null, costFen: 7 },
    ]);
  });
  it('keeps every other fact, with its skin resolved', () => {
    const out = allocateCosts([{ channelCode: 'b', day: '2025-03-01', skin: null, leads: 3 }], defaultSkinOf);
    expect(out).toEqual([{ channelCode: 'b', day: '2025-03-01', skin: 8, leads: 3 }]);
  });
});

const facts: RoiFact[] = [
  { channelCode: 'a', day: '2025-03-01', skin: 17, clicks: 10 },
  { channelCode: 'a', day: '2025-03-01', skin: 9, clicks: 10 },
  { channelCode: 'a', day: '2025-03-01', skin: null, costFen: 1_001 },
  { channelCode: 'a', day: '2025-03-01', skin: 17, registrations: 2, leads: 4 },
  { channelCode: 'a', day: '2025-03-01', skin: 17, revenueFen: 3_000 },
  { channelCode: 'a', day: '2025-03-02', skin: 9, revenueFen: 500, approved: 1 },
  { channelCode: 'a', day: '2025-03-02', skin: 9, returnedFen: 500, returns: 1 },
  { channelCode: 'b', day: '2025-03-02', skin: null, costFen: 2_000, funded: 1 },
  { channelCode: null, day: '2025-03-02', skin: null, registrations: 1 },
  // all zeros: no row
  { channelCode: 'c', day: '2025-03-03', skin: 5, clicks: 0, costFen: 0 },
];

describe('aggregateRoi', () => {
  it('by channel: sums, margin, ROI, cost per lead; names; no-channel row; zero rows left out', () => {
    const { rows, totals } = aggregateRoi(facts, { groupBy: 'channel', defaultSkinOf, channelNames: names });
    expect(rows.map((r) => r.key)).toEqual(['', 'a', 'b']);
    expect(rows[0]).toMatchObject({
      key: '',
      label: '（无渠道）',
      registrations: 1,
      costFen: 0,
      roiBps: null,
    });
    expect(rows[1]).toEqual({
      key: 'a',
      label: '渠道A',
      clicks: 20,
      registrations: 2,
      leads: 4,
      approved: 1,
      funded: 0,
      returns: 1,
      costFen: 1_001,
      revenueFen: 3_500,
      returnedFen: 500,
      marginFen: 1_999,
      roiBps: 19_970, // 1999 × 10000 / 1001 = 19970.03
      costPerLeadFen: 250, // 250.25
    });
    expect(rows[1]).not.toHaveProperty('revenuePerVisitorFen');
    expect(rows[2]).toMatchObject({
      key: 'b',
      label: '渠道B',
      funded: 1,
      marginFen: -2_000,
      roiBps: -10_000,
      costPerLeadFen: null,
    });
    expect(totals).toEqual({
      clicks: 20,
      registrations: 3,
      leads: 4,
      approved: 1,
      funded: 1,
      returns: 1,
      costFen: 3_001,
      revenueFen: 3_500,
      returnedFen: 500,
      marginFen: -1,
      roiBps: -3, // −3.33 → −3
      costPerLeadFen: 750, // 750.25
    });
  });

  it('by day: sorted days, same totals', () => {
    const { rows, totals } = aggregateRoi(facts, { groupBy: 'day', defaultSkinOf, channelNames: names });
    expect(rows.map((r) => r.key)).toEqual(['2025-03-01', '2025-03-02']);
    expect(rows[0]).not.toHaveProperty('label');
    expect(rows[0]).toMatchObject({ costFen: 1_001, revenueFen: 3_000, marginFen: 1_999, clicks: 20 });
    expect(rows[1]).toMatchObject({ costFen: 2_000, revenueFen: 500, returnedFen: 500, marginFen: -2_000 });
    expect(totals.marginFen).toBe(-1);
  });

  it('by skin: cost split by clicks, revenue per visitor, unknown skin last, totals equal the other groupings', () => {
    const { rows, totals } = aggregateRoi(facts, { groupBy: 'skin', defaultSkinOf, channelNames: names });
    expect(rows.map((r) => r.key)).toEqual(['8', '9', '17', '']);
    // b's cost has no clicks that day: b's own skin (8)
    expect(rows[0]).toMatchObject({ label: 'skin8', costFen: 2_000, funded: 1, revenuePerVisitorFen: null });
    // a's 1 001 fen over 10 + 10 clicks: 501 (tie → the first in skin order, 9) and 500
    expect(rows[1]).toMatchObject({
      label: 'skin9',
      costFen: 501,
      clicks: 10,
      revenueFen: 500,
      returnedFen: 500,
      revenuePerVisitorFen: 0,
    });
    expect(rows[2]).toMatchObject({
      label: 'skin17',
      costFen: 500,
      revenueFen: 3_000,
      revenuePerVisitorFen: 300,
    });
    expect(rows[3]).toMatchObject({ key: '', label: '未知皮肤', registrations: 1 });
    const byChannel = aggregateRoi(facts, { groupBy: 'channel', defaultSkinOf, channelNames: names }).totals;
    const { revenuePerVisitorFen, ...rest } = totals;
    expect(rest).toEqual(byChannel);
    expect(revenuePerVisitorFen).toBe(150); // 3000 / 20
  });

  it('totals recompute ratios from sums, never from the rows’ ratios', () => {
    const { rows, totals } = aggregateRoi(
      [
        { channelCode: 'a', day: '2025-03-01', skin: null, costFen: 1, leads: 1 },
        { channelCode: 'b', day: '2025-03-01', skin: null, costFen: 1, leads: 2, revenueFen: 2 },
      ],
      { groupBy: 'channel', defaultSkinOf, channelNames: names },
    );
    expect(rows.map((r) => r.costPerLeadFen)).toEqual([1, 1]); // 1 and 0.5 → 1
    expect(totals.costPerLeadFen).toBe(1); // 2 / 3 → 1
    expect(totals.roiBps).toBe(0);
  });

  it('nothing in the period: no rows and zero totals with null ratios', () => {
    const { rows, totals } = aggregateRoi([], { groupBy: 'day', defaultSkinOf, channelNames: names });
    expect(rows).toEqual([]);
    expect(totals).toMatchObject({ costFen: 0, marginFen: 0, roiBps: null, costPerLeadFen: null });
  });

  it('any split keeps the totals: cost by skin sums to cost by channel (property)', () => {
    const fact = fc.record({
      channelCode: fc.constantFrom('a', 'b', null),
      day: fc.constantFrom('2025-03-01', '2025-03-02'),
      skin: fc.constantFrom(8, 9, 17, null),
      clicks: fc.nat(50),
      costFen: fc.integer({ min: -1_000, max: 1e9 }),
      revenueFen: fc.nat(1e9),
    });
    fc.assert(
      fc.property(fc.array(fact, { maxLength: 30 }), (fs) => {
        const o = { defaultSkinOf, channelNames: names };
        const a = aggregateRoi(fs, { ...o, groupBy: 'skin' }).totals;
        const b = aggregateRoi(fs, { ...o, groupBy: 'channel' }).totals;
        const c = aggregateRoi(fs, { ...o, groupBy: 'day' }).totals;
        expect(a.costFen).toBe(b.costFen);
        expect(c).toEqual(b);
        expect(b.costFen).toBe(fs.reduce((s, f) => s + f.costFen, 0));
      }),
      { numRuns: 500 },
    );
  });
});

describe('a viewer gets no amounts', () => {
  it('removes every amount field, keeps the volumes', () => {
    const { rows } = aggregateRoi(facts, { groupBy: 'skin', defaultSkinOf, channelNames: names });
    const v = withoutAmounts(rows[1]!);
    expect(Object.keys(v).sort()).toEqual(
      ['approved', 'clicks', 'funded', 'key', 'label', 'leads', 'registrations', 'returns'].sort(),
    );
  });
});

describe('A/B arms', () => {
  it('a channel runs a test with two or more arms with traffic', () => {
    expect(runsAbTest(null)).toBe(false);
    expect(runsAbTest([{ skin: 8, weight: 1 }])).toBe(false);
    expect(
      runsAbTest([
        { skin: 8, weight: 1 },
        { skin: 9, weight: 0 },
      ]),
    ).toBe(false);
    expect(
      runsAbTest([
        { skin: 8, weight: 1 },
        { skin: 9, weight: 1 },
      ]),
    ).toBe(true);
  });

  it("takes the A/B page's arms and z-test as they are and adds revenue per visitor", () => {
    const test = compareArm(250, 1000, 200, 1000);
    const arms: FunnelArmsData = {
      from: '2025-03-01',
      to: '2025-03-02',
      adChannelCode: 'a',
      baseStep: 'click',
      minSample: 30,
      arms: [
        {
          skin: 17,
          weight: 1,
          isControl: true,
          steps: [
            { step: 'click', label: '渠道点击', count: 1000, rate: 1, test },
            { step: 'authorize', label: '授权', count: 200, rate: 0.2, test },
          ],
        },
        {
          skin: 9,
          weight: 1,
          isControl: false,
          steps: [
            { step: 'click', label: '渠道点击', count: 1000, rate: 1, test },
            { step: 'authorize', label: '授权', count: 250, rate: 0.25, test },
          ],
        },
        { skin: 5, weight: null, isControl: false, steps: [] },
      ],
    };
    const t = abTestOf(
      '渠道A',
      arms,
      facts.filter((f) => f.channelCode === 'a' && f.costFen === undefined),
      defaultSkinOf,
    );
    expect(t).toMatchObject({
      adChannelCode: 'a',
      name: '渠道A',
      step: 'authorize',
      stepLabel: '授权',
      minSample: 30,
    });
    expect(t.arms[0]).toMatchObject({
      skin: 17,
      isControl: true,
      visitors: 1000,
      revenueFen: 3_000,
      revenuePerVisitorFen: 3,
    });
    expect(t.arms[1]).toMatchObject({
      skin: 9,
      visitors: 1000,
      revenueFen: 500,
      returnedFen: 500,
      revenuePerVisitorFen: 0,
      count: 250,
      rate: 0.25,
    });
    expect(t.arms[1]!.test).toBe(test);
    expect(t.arms[2]).toMatchObject({
      skin: 5,
      visitors: 0,
      revenuePerVisitorFen: null,
      test: { verdict: 'too_small' },
    });
  });
});
