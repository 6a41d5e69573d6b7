import { describe, expect, it } from 'vitest';
import { latencyText } from './format';

describe('latencyText (机构反馈)', () => {
  it('is a dash without a figure', () => {
    expect(latencyText(null)).toBe('—');
    expect(latencyText(Number.NaN)).toBe('—');
  });

  it('writes minutes below an hour, hours below a day, days from there', () => {
    expect(latencyText(0)).toBe('不到 1 分钟');
    expect(latencyText(59)).toBe('不到 1 分钟');
    expect(latencyText(60)).toBe('1 分钟');
    expect(latencyText(42 * 60 + 10)).toBe('42 分钟');
    expect(latencyText(3599)).toBe('1 小时');
    expect(latencyText(3600)).toBe('1 小时');
    expect(latencyText(3.5 * 3600)).toBe('3.5 小时');
    expect(latencyText(86_399)).toBe('1 天');
    expect(latencyText(23.9 * 3600)).toBe('23.9 小时');
    expect(latencyText(86_400)).toBe('1 天');
    expect(latencyText(2.25 * 86_400)).toBe('2.3 天');
    expect(latencyText(30 * 86_400)).toBe('30 天');
  });
});
