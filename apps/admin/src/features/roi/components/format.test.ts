import { describe, expect, it } from 'vitest';
import { count, roiPercent, topAndBottom, yuan, yuanAxis } from './format';

describe('ROI formatting', () => {
  it('writes fen as yuan exactly, ROI as a percentage', () => {
    expect(yuan(123_456_789)).toBe('1,234,567.89');
    expect(yuan(-1_000)).toBe('-10.00');
    expect(yuan(undefined)).toBe('—');
    expect(yuanAxis(250_000)).toBe('2,500');
    expect(roiPercent(9_980)).toBe('99.8%');
    expect(roiPercent(-10_000)).toBe('-100%');
    expect(roiPercent(null)).toBe('—');
    expect(count(12_345)).toBe('12,345');
  });
  it('top and bottom by margin without overlap', () => {
    const rows = [1, 5, -3, 2, -8].map((m, i) => ({ key: String(i), marginFen: m }));
    expect(topAndBottom(rows, 2)).toEqual({
      top: [rows[1], rows[3]],
      bottom: [rows[4], rows[2]],
    });
    expect(topAndBottom(rows.slice(0, 3), 5)).toEqual({ top: [rows[1], rows[0], rows[2]], bottom: [] });
    expect(topAndBottom([{ marginFen: undefined }], 3)).toEqual({ top: [], bottom: [] });
  });
});
