import { describe, expect, it } from 'vitest';
import {
  dayLabel,
  groupByDay,
  previousDay,
  publishedText,
  shanghaiDayOf,
  timeOfDay,
  todayHeading,
} from './dates';

// 2026-11-22 10:00 in Shanghai (a Sunday).
const NOW = Date.parse('2026-11-22T02:00:00Z');

describe('news dates (Asia/Shanghai)', () => {
  it('takes the day by the Shanghai calendar, not UTC', () => {
    expect(shanghaiDayOf('2026-11-21T16:00:00Z')).toBe('2026-11-22');
    expect(shanghaiDayOf('2026-11-21T15:59:59Z')).toBe('2026-11-21');
  });

  it('counts back across months and years', () => {
    expect(previousDay('2026-03-01')).toBe('2026-02-28');
    expect(previousDay('2024-03-01')).toBe('2024-02-29');
    expect(previousDay('2027-01-01')).toBe('2026-12-31');
  });

  it('labels today, yesterday, other days of this year and earlier years', () => {
    expect(dayLabel('2026-11-22', '2026-11-22')).toBe('今天');
    expect(dayLabel('2026-11-21', '2026-11-22')).toBe('昨天');
    expect(dayLabel('2026-11-20', '2026-11-22')).toBe('11月20日 星期五');
    expect(dayLabel('2026-01-01', '2026-11-22')).toBe('1月1日 星期四');
    expect(dayLabel('2025-12-31', '2026-01-01')).toBe('昨天');
    expect(dayLabel('2025-12-30', '2026-01-01')).toBe('2025年12月30日');
  });

  it('groups a newest-first list by day, keeping the order', () => {
    const items = [
      { id: 1, publishedAt: '2026-11-22T01:00:00Z' },
      { id: 2, publishedAt: '2026-11-21T17:00:00Z' }, // 01:00 on the 22nd in Shanghai
      { id: 3, publishedAt: '2026-11-21T15:00:00Z' }, // 23:00 on the 21st
      { id: 4, publishedAt: '2026-11-20T02:00:00Z' },
      { id: 5, publishedAt: '2025-06-01T02:00:00Z' },
    ];
    const groups = groupByDay(items, NOW);
    expect(groups.map((g) => [g.label, g.items.map((i) => i.id)])).toEqual([
      ['今天', [1, 2]],
      ['昨天', [3]],
      ['11月20日 星期五', [4]],
      ['2025年6月1日', [5]],
    ]);
    expect(groups[0]!.day).toBe('2026-11-22');
    expect(groupByDay([], NOW)).toEqual([]);
  });

  it('just after midnight in Shanghai, yesterday evening is 昨天', () => {
    const justAfterMidnight = Date.parse('2026-11-21T16:05:00Z'); // 00:05 on the 22nd
    const [group] = groupByDay([{ publishedAt: '2026-11-21T14:00:00Z' }], justAfterMidnight);
    expect(group!.label).toBe('昨天');
  });

  it('prints times in Shanghai', () => {
    expect(publishedText('2026-11-22T01:05:00Z')).toBe('2026年11月22日 09:05');
    expect(timeOfDay('2026-11-21T16:00:00Z')).toBe('00:00');
    expect(todayHeading(NOW)).toBe('11月22日 星期日');
  });
});
