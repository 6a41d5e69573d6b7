import { describe, expect, it } from 'vitest';
import { formatGroup, formatValue, thresholdText } from './format';

describe('web vitals formatting', () => {
  it('shows timings in ms below a second, in s above, and CLS unitless', () => {
    expect(formatValue('INP', 199.6)).toBe('200 ms');
    expect(formatValue('LCP', 3250)).toBe('3.25 s');
    expect(formatValue('CLS', 0.1)).toBe('0.100');
  });

  it('labels groups people can read', () => {
    expect(formatGroup('skin', '17')).toBe('skin17');
    expect(formatGroup('channel', null)).toBe('（无渠道）');
    expect(formatGroup('route', '/fill-information/success')).toBe('/fill-information/success');
  });

  it('states the Core Web Vitals thresholds', () => {
    expect(thresholdText('LCP', { good: 2500, poor: 4000 })).toBe('≤ 2.50 s 良好，> 4.00 s 较差');
    expect(thresholdText('CLS', { good: 0.1, poor: 0.25 })).toBe('≤ 0.100 良好，> 0.250 较差');
  });
});
