import { describe, expect, it } from 'vitest';
import { createExposureTracker } from './exposure';
import { formatAmount, formatAmountRange, formatApr, formatTerm, initialOf } from './format';

describe('product figures', () => {
  it('amounts: fen to 元 below ten thousand yuan, to 万 from it', () => {
    expect(formatAmount(500_000)).toBe('5,000元');
    expect(formatAmount(100_000)).toBe('1,000元');
    expect(formatAmount(1_000_000)).toBe('1万');
    expect(formatAmount(1_500_000)).toBe('1.5万');
    expect(formatAmount(20_000_000)).toBe('20万');
    expect(formatAmount(1_234_567)).toBe('1.23万');
    expect(formatAmount(99_950)).toBe('999.50元');
    expect(formatAmountRange(100_000, 20_000_000)).toBe('1,000元-20万');
    expect(formatAmountRange(5_000_000, 5_000_000)).toBe('5万');
  });

  it('APR: basis points to a percentage with two decimals', () => {
    expect(formatApr(1800)).toBe('年化 18.00%');
    expect(formatApr(720)).toBe('年化 7.20%');
    expect(formatApr(2399)).toBe('年化 23.99%');
    expect(formatApr(null)).toBe('年化利率以审批为准');
  });

  it('terms in months and the logo initial', () => {
    expect(formatTerm(3, 12)).toBe('3-12个月');
    expect(formatTerm(12, 12)).toBe('12个月');
    expect(initialOf(' 星河极速贷')).toBe('星');
    expect(initialOf('')).toBe('贷');
  });
});

describe('exposure tracker', () => {
  it('reports a product once per placement per page view, from half visible', () => {
    const sent: [string, number][] = [];
    const tracker = createExposureTracker((id, placement) => sent.push([id, placement]));
    expect(tracker.seen('1', 6, 0.49)).toBe(false);
    expect(tracker.seen('1', 6, 0.5)).toBe(true);
    expect(tracker.seen('1', 6, 1)).toBe(false);
    // The same product in another placement is another exposure.
    expect(tracker.seen('1', 4, 0.8)).toBe(true);
    expect(tracker.seen('2', 6, 0.9)).toBe(true);
    expect(sent).toEqual([
      ['1', 6],
      ['1', 4],
      ['2', 6],
    ]);
    expect(tracker.reported('1', 6)).toBe(true);
    expect(tracker.reported('2', 4)).toBe(false);
    // A new page view (a new tracker) reports again.
    const next = createExposureTracker((id, placement) => sent.push([id, placement]));
    expect(next.seen('1', 6, 1)).toBe(true);
    expect(sent).toHaveLength(4);
  });
});
