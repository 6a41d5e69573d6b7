import { describe, expect, it } from 'vitest';
import { percent, points, pValue } from './format';

describe('funnel formatting', () => {
  it('shows rates as percentages and missing rates as a dash', () => {
    expect(percent(0.12345)).toBe('12.35%');
    expect(percent(1)).toBe('100.00%');
    expect(percent(null)).toBe('—');
    expect(percent(Number.NaN)).toBe('—');
  });
  it('signs differences in percentage points', () => {
    expect(points(0.05)).toBe('+5.00pp');
    expect(points(-0.0135)).toBe('-1.35pp');
    expect(points(0)).toBe('0.00pp');
    expect(points(null)).toBe('—');
  });
  it('writes tiny p-values as <0.0001', () => {
    expect(pValue(0.0074)).toBe('0.0074');
    expect(pValue(0.00001)).toBe('<0.0001');
    expect(pValue(null)).toBe('—');
  });
});
