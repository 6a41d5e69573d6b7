import { describe, expect, it } from 'vitest';
import {
  bpsToPercent,
  capUsage,
  codesToPaths,
  formatApr,
  pathsToCodes,
  percentToBps,
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
