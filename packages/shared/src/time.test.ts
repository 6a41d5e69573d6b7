import { describe, expect, it } from 'vitest';
import { addDays, formatShanghai, HHMM_PATTERN, shanghaiClock, shanghaiDay } from './time.ts';

describe('Asia/Shanghai times', () => {
  it('formats an instant in Shanghai time, whatever the runtime time zone', () => {
    expect(formatShanghai('2026-03-01T16:05:09.000Z')).toBe('2026-03-02 00:05');
    expect(formatShanghai('2026-03-01T16:05:09.000Z', 'second')).toBe('2026-03-02 00:05:09');
    expect(formatShanghai('2026-03-01T15:59:59.000Z', 'day')).toBe('2026-03-01');
    expect(formatShanghai('2026-03-01T16:00:00.000Z', 'day')).toBe('2026-03-02');
  });

  it('shows a dash for a missing or unreadable time', () => {
    expect(formatShanghai(null)).toBe('—');
    expect(formatShanghai(undefined)).toBe('—');
    expect(formatShanghai('not a time')).toBe('—');
  });

  it('names the Shanghai calendar day (it starts at 16:00 UTC the day before)', () => {
    expect(shanghaiDay(Date.parse('2026-11-25T15:59:59Z'))).toBe('2026-11-25');
    expect(shanghaiDay(Date.parse('2026-11-25T16:00:00Z'))).toBe('2026-11-26');
    expect(shanghaiDay(Date.parse('2026-03-01T15:59:59.999Z'))).toBe('2026-03-01');
    expect(shanghaiDay(Date.parse('2026-12-31T23:00:00Z'))).toBe('2027-01-01');
  });
});

describe('Shanghai calendar helpers', () => {
  it('adds and subtracts calendar days across months and years', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', 0)).toBe('2026-03-01');
  });

  it('reads an instant on the Shanghai wall clock', () => {
    const c = shanghaiClock(Date.parse('2026-03-01T16:05:00Z'));
    expect([c.getUTCDate(), c.getUTCHours(), c.getUTCMinutes()]).toEqual([2, 0, 5]);
  });

  it('accepts HH:MM times of day only', () => {
    expect(HHMM_PATTERN.test('09:30')).toBe(true);
    expect(HHMM_PATTERN.test('23:59')).toBe(true);
    expect(HHMM_PATTERN.test('24:00')).toBe(false);
    expect(HHMM_PATTERN.test('9:30')).toBe(false);
  });
});
