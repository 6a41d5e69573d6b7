import { describe, expect, it } from 'vitest';
import {
  amountTotals,
  latencyFigures,
  outcomeCounts,
  percentile,
  reportKind,
  resolveOutcomeRange,
} from './rules.ts';

describe('percentile (linear between the nearest ranks, as percentile_cont)', () => {
  it('answers null for nothing and the value itself for one', () => {
    expect(percentile([], 0.5)).toBeNull();
    expect(percentile([42], 0.5)).toBe(42);
    expect(percentile([42], 0.9)).toBe(42);
  });

  it('interpolates between ranks', () => {
    expect(percentile([10, 20], 0.5)).toBe(15);
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2.5);
    // 10 values: p90 sits at rank 8.1 (0-based) — 9 + 0.1 × (10 − 9).
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9)).toBeCloseTo(9.1, 10);
    expect(percentile([1, 2, 3], 0)).toBe(1);
    expect(percentile([1, 2, 3], 1)).toBe(3);
  });

  it('keeps p within 0–1', () => {
    expect(percentile([1, 2, 3], -1)).toBe(1);
    expect(percentile([1, 2, 3], 2)).toBe(3);
  });
});

describe('latencyFigures (seconds from delivery to a report)', () => {
  it('is null with a zero count when nothing was reported', () => {
    expect(latencyFigures([])).toEqual({ count: 0, medianSeconds: null, p90Seconds: null });
    expect(latencyFigures([null, null])).toEqual({ count: 0, medianSeconds: null, p90Seconds: null });
  });

  it('sorts, leaves out what is not a number and rounds to whole seconds', () => {
    expect(latencyFigures([3600, null, 60, Number.NaN, 7200.4])).toEqual({
      count: 3,
      medianSeconds: 3600,
      // rank 1.8 of [60, 3600, 7200.4]: 3600 + 0.8 × 3600.4 = 6480.32
      p90Seconds: 6480,
    });
    expect(latencyFigures([Number.POSITIVE_INFINITY, 5])).toEqual({
      count: 1,
      medianSeconds: 5,
      p90Seconds: 5,
    });
  });

  it('counts a report received before the delivery was recorded as 0 seconds', () => {
    expect(latencyFigures([-3, 10])).toEqual({ count: 2, medianSeconds: 5, p90Seconds: 9 });
  });

  it('an hour, a day and ten days: median one day, p90 near eight days', () => {
    const day = 86_400;
    const f = latencyFigures([3600, day, 10 * day]);
    expect(f.medianSeconds).toBe(day);
    expect(f.p90Seconds).toBe(Math.round(day + 0.8 * 9 * day));
  });
});

describe('outcomeCounts', () => {
  it('gives every key in order with its label, nulls as pending, zero for the rest', () => {
    expect(
      outcomeCounts([
        { outcome: null, n: 3 },
        { outcome: 'funded', n: 2 },
        { outcome: 'declined', n: 1 },
      ]),
    ).toEqual([
      { key: 'pending', label: '申请中', count: 3 },
      { key: 'received', label: '申请中', count: 0 },
      { key: 'duplicate', label: '未通过', count: 0 },
      { key: 'approved', label: '已授信', count: 0 },
      { key: 'declined', label: '未通过', count: 1 },
      { key: 'funded', label: '已放款', count: 2 },
    ]);
  });
});

describe('amountTotals', () => {
  it('sums the limits of leads still approved or funded and the amounts of funded ones', () => {
    expect(
      amountTotals([
        { outcome: 'approved', limitFen: 2_000_000, amountFen: null },
        { outcome: 'funded', limitFen: 1_000_000, amountFen: 800_000 },
        // Approved, then declined: its limit no longer counts.
        { outcome: 'declined', limitFen: 5_000_000, amountFen: null },
        // Funded without an approval reported.
        { outcome: 'funded', limitFen: null, amountFen: 300_000 },
        { outcome: 'received', limitFen: null, amountFen: null },
        { outcome: null, limitFen: null, amountFen: null },
      ]),
    ).toEqual({ approvedFen: 3_000_000, fundedFen: 1_100_000 });
    expect(amountTotals([])).toEqual({ approvedFen: 0, fundedFen: 0 });
  });
});

describe('reportKind', () => {
  it('repeated when an earlier report had the status, late when it moved and repeated nothing', () => {
    expect(reportKind({ applied: true, sameStatusBefore: false })).toEqual({ repeated: false, late: false });
    expect(reportKind({ applied: true, sameStatusBefore: true })).toEqual({ repeated: true, late: false });
    expect(reportKind({ applied: false, sameStatusBefore: true })).toEqual({ repeated: true, late: false });
    expect(reportKind({ applied: false, sameStatusBefore: false })).toEqual({ repeated: false, late: true });
  });
});

describe('resolveOutcomeRange (Shanghai days)', () => {
  const today = '2026-03-31';
  it('defaults to the last 30 days', () => {
    expect(resolveOutcomeRange({}, today)).toEqual({ ok: true, from: '2026-03-02', to: today });
    expect(resolveOutcomeRange({ to: '2026-03-10' }, today)).toEqual({
      ok: true,
      from: '2026-02-09',
      to: '2026-03-10',
    });
    expect(resolveOutcomeRange({ from: '2026-03-20' }, today)).toEqual({
      ok: true,
      from: '2026-03-20',
      to: today,
    });
  });

  it('refuses a reversed, too long or future range in words', () => {
    expect(resolveOutcomeRange({ from: '2026-03-10', to: '2026-03-09' }, today)).toEqual({
      ok: false,
      message: '结束日期不能早于开始日期',
    });
    expect(resolveOutcomeRange({ from: '2025-12-30', to: '2026-03-31' }, today)).toEqual({
      ok: true,
      from: '2025-12-30',
      to: '2026-03-31',
    });
    expect(resolveOutcomeRange({ from: '2025-12-29', to: '2026-03-31' }, today)).toEqual({
      ok: false,
      message: '日期范围最多 92 天',
    });
    expect(resolveOutcomeRange({ from: '2026-04-01' }, today)).toEqual({
      ok: false,
      message: '开始日期不能晚于今天',
    });
  });
});
