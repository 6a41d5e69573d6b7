import { describe, expect, it } from 'vitest';
import {
  bpsToPercent,
  capUsage,
  codesToPaths,
  formatApr,
  pathsToCodes,
  percentToBps,
  priceText,
  yuanToFen,
} from './format';

describe('product formats', () => {
  it('shows APR in % and stores whole basis points', () => {
    expect(formatApr(2400)).toBe('24.00%');
    expect(formatApr(null)).toBe('未填写');
    expect(percentToBps(24.01)).toBe(2401);
    expect(percentToBps(17.999)).toBe(1800);
    expect(percentToBps(null)).toBeNull();
    expect(bpsToPercent(1850)).toBe(18.5);
  });
  it('converts yuan to whole fen', () => {
    expect(yuanToFen(5000)).toBe(500_000);
    expect(yuanToFen(0.1 + 0.2)).toBe(30);
  });
  it('shows cap usage with the share used', () => {
    expect(capUsage(7, 500)).toEqual({ text: '7 / 500', percent: 1 });
    expect(capUsage(600, 500).percent).toBe(100);
    expect(capUsage(3, null)).toEqual({ text: '3 / 不限', percent: null });
  });
  it('maps region codes to picker paths and back (province codes stand for the province)', () => {
    const codes = ['440000', '510100', '419001'];
    expect(codesToPaths(codes)).toEqual([['440000'], ['510000', '510100'], ['410000', '419001']]);
    expect(pathsToCodes(codesToPaths(codes))).toEqual(codes);
  });
});

describe('lead prices (issue 48.1)', () => {
  it('writes a CPL / CPA price in exact yuan a lead and a CPS share as a percentage', () => {
    expect(priceText({ amountFen: 350_000 })).toBe('3,500.00 元 / 条');
    expect(priceText({ amountFen: 0 })).toBe('0.00 元 / 条');
    expect(priceText({ amountFen: 29 })).toBe('0.29 元 / 条');
    expect(priceText({ bps: 150 })).toBe('放款金额的 1.5%');
    expect(priceText({ bps: 10_000 })).toBe('放款金额的 100%');
  });
  it('names a price whose amount is not sent (a viewer)', () => {
    expect(priceText({})).toBe('金额不公开');
  });
});
