import { shanghaiDayStart } from '@lm/shared/time';
import { describe, expect, it } from 'vitest';
import { byNewest, type PriceRow, priceAt } from './rules.ts';

const row = (id: number, model: PriceRow['model'], day: string): PriceRow => ({
  id,
  model,
  effectiveFrom: shanghaiDayStart(day),
});

const prices = [
  row(1, 'cpl', '2026-12-01'),
  row(2, 'cpl', '2026-12-10'),
  row(3, 'cpa', '2026-12-05'),
  row(4, 'cpl', '2026-12-20'),
];

describe('priceAt', () => {
  it('null when there are no prices at all', () => {
    expect(priceAt([], 'cpl', new Date('2026-12-15T00:00:00Z'))).toBeNull();
  });

  it('null when no row of the model has taken effect yet', () => {
    expect(priceAt(prices, 'cpl', new Date('2026-11-30T15:59:59.999Z'))).toBeNull(); // 23:59:59 on 11-30
    expect(priceAt(prices, 'cpa', new Date('2026-12-04T12:00:00Z'))).toBeNull();
  });

  it('null for a model with no row, whatever the others', () => {
    expect(priceAt(prices, 'cps', new Date('2027-01-01T00:00:00Z'))).toBeNull();
  });

  it('a row takes effect at the start of its Shanghai day exactly', () => {
    expect(priceAt(prices, 'cpl', new Date('2026-11-30T16:00:00Z'))?.id).toBe(1); // 00:00 on 12-01
    expect(priceAt(prices, 'cpl', new Date('2026-12-09T15:59:59.999Z'))?.id).toBe(1);
    expect(priceAt(prices, 'cpl', new Date('2026-12-09T16:00:00Z'))?.id).toBe(2);
  });

  it('the latest row on or before the instant, whatever the order given', () => {
    const at = new Date('2026-12-15T04:00:00Z');
    expect(priceAt(prices, 'cpl', at)?.id).toBe(2);
    expect(priceAt([...prices].reverse(), 'cpl', at)?.id).toBe(2);
    expect(priceAt(prices, 'cpl', new Date('2027-06-01T00:00:00Z'))?.id).toBe(4);
  });

  it('a future row does not apply before its day', () => {
    expect(priceAt(prices, 'cpl', new Date('2026-12-19T15:59:59Z'))?.id).toBe(2);
  });

  it('two rows of one instant: the later-added wins', () => {
    const same = [row(7, 'cps', '2026-12-01'), row(5, 'cps', '2026-12-01')];
    expect(priceAt(same, 'cps', new Date('2026-12-02T00:00:00Z'))?.id).toBe(7);
    expect(priceAt([...same].reverse(), 'cps', new Date('2026-12-02T00:00:00Z'))?.id).toBe(7);
  });
});

describe('byNewest', () => {
  it('the latest effective day first, then the later-added', () => {
    const rows = [...prices, row(9, 'cpa', '2026-12-10')];
    expect(rows.sort(byNewest).map((r) => r.id)).toEqual([4, 9, 2, 3, 1]);
  });
});
