import { describe, expect, it } from 'vitest';
import { ageText, formatShanghai } from './format';

describe('delivery wording', () => {
  it('says how long the oldest lead has waited', () => {
    expect(ageText(null)).toBe('—');
    expect(ageText(45)).toBe('45 秒');
    expect(ageText(12 * 60 + 5)).toBe('12 分钟');
    expect(ageText(3 * 3600)).toBe('3 小时');
    expect(ageText(3 * 3600 + 5 * 60)).toBe('3 小时 5 分');
    expect(ageText(2 * 86400 + 4 * 3600 + 59)).toBe('2 天 4 小时');
  });

  it('shows Shanghai time', () => {
    expect(formatShanghai('2026-01-31T16:00:00Z')).toBe('2026-02-01 00:00');
    expect(formatShanghai(undefined)).toBe('—');
  });
});
