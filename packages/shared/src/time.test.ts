import { describe, expect, it } from 'vitest';
import {
  addDays,
  endOfShanghaiDay,
  formatShanghai,
  HHMM_PATTERN,
  shanghaiClock,
  shanghaiCompactDate,
  shanghaiDate,
  shanghaiDateText,
  shanghaiDay,
  shanghaiDayBounds,
  shanghaiDayNumber,
  shanghaiDayStart,
  shanghaiDaysBetween,
  shanghaiMinuteOfDay,
  shanghaiWallTime,
  startOfShanghaiDay,
  startOfShanghaiDayNumber,
} from './time.ts';

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

describe('the Shanghai calendar day of an instant (the one time module of web, console and server)', () => {
  const at = (iso: string) => new Date(iso);

  it('names the day, which starts at 16:00 UTC the day before, also before 1970', () => {
    expect(shanghaiDate(at('2026-11-28T15:59:59.999Z'))).toBe('2026-11-28');
    expect(shanghaiDate(at('2026-11-28T16:00:00.000Z'))).toBe('2026-11-29');
    expect(shanghaiDate(at('1969-12-31T15:59:59.999Z'))).toBe('1969-12-31');
    expect(shanghaiDate(at('1969-12-31T16:00:00.000Z'))).toBe('1970-01-01');
    expect(shanghaiCompactDate(at('2026-01-01T15:59:59Z'))).toBe('20260101');
    expect(shanghaiCompactDate(at('2026-12-31T16:00:00Z'))).toBe('20270101');
  });

  it('throws on an invalid date', () => {
    expect(() => shanghaiDate(new Date(Number.NaN))).toThrow(RangeError);
  });

  it('starts and ends the day at Shanghai midnight', () => {
    expect(startOfShanghaiDay(at('2026-03-01T15:59:59Z'))).toEqual(at('2026-02-28T16:00:00Z'));
    expect(startOfShanghaiDay(at('2026-03-01T16:00:00Z'))).toEqual(at('2026-03-01T16:00:00Z'));
    expect(endOfShanghaiDay(at('2026-11-28T03:04:05Z'))).toEqual(at('2026-11-28T16:00:00Z'));
    expect(endOfShanghaiDay(at('2026-11-28T16:00:00Z'))).toEqual(at('2026-11-29T16:00:00Z'));
    expect(endOfShanghaiDay(at('1969-12-31T17:00:00Z'))).toEqual(at('1970-01-01T16:00:00Z'));
    const t = at('2026-11-28T03:04:05Z');
    expect(shanghaiDate(new Date(endOfShanghaiDay(t).getTime() - 1))).toBe(shanghaiDate(t));
    expect(shanghaiDate(endOfShanghaiDay(t))).toBe('2026-11-29');
  });

  it('numbers days and counts the days between two instants', () => {
    expect(shanghaiDayNumber(at('1970-01-01T00:00:00Z'))).toBe(0);
    expect(shanghaiDayNumber(at('1969-12-31T16:00:00Z'))).toBe(0);
    expect(shanghaiDayNumber(at('1969-12-31T15:59:59Z'))).toBe(-1);
    expect(startOfShanghaiDayNumber(1)).toEqual(at('1970-01-01T16:00:00Z'));
    expect(shanghaiDaysBetween(at('2026-11-28T15:59:59Z'), at('2026-11-28T16:00:00Z'))).toBe(1);
    expect(shanghaiDaysBetween(at('2026-11-28T16:00:00Z'), at('2026-11-29T15:59:59Z'))).toBe(0);
    expect(shanghaiDaysBetween(at('2026-12-01T00:00:00Z'), at('2026-11-28T00:00:00Z'))).toBe(-3);
  });

  it('reads the minute of the Shanghai day', () => {
    expect(shanghaiMinuteOfDay(at('2026-11-28T16:00:00Z'))).toBe(0);
    expect(shanghaiMinuteOfDay(at('2026-11-28T15:59:00Z'))).toBe(1439);
    expect(shanghaiMinuteOfDay(at('2026-11-28T01:30:59Z'))).toBe(9 * 60 + 30);
    expect(shanghaiMinuteOfDay(at('1969-12-31T15:00:00Z'))).toBe(23 * 60);
  });
});

describe('a Shanghai calendar day written YYYY-MM-DD', () => {
  it('starts at 16:00 UTC the day before and lasts 24 hours', () => {
    expect(shanghaiDayStart('2026-11-22')).toEqual(new Date('2026-11-21T16:00:00Z'));
    expect(shanghaiDayBounds('2026-11-22')).toEqual({
      start: new Date('2026-11-21T16:00:00Z'),
      end: new Date('2026-11-22T16:00:00Z'),
    });
  });

  it('refuses what is not a calendar day', () => {
    for (const bad of ['2026-13-40', '2026-02-30', 'yesterday', '22/11/2026', '2026-1-1', ''])
      expect(() => shanghaiDayStart(bad), bad).toThrow(RangeError);
  });

  it('reads a Shanghai wall-clock time', () => {
    expect(shanghaiWallTime('2026-11-22 09:30')).toEqual(new Date('2026-11-22T01:30:00Z'));
    expect(shanghaiWallTime('2026-11-22')).toEqual(new Date('2026-11-21T16:00:00Z'));
    expect(shanghaiWallTime('2026-11-22T23:59')).toEqual(new Date('2026-11-22T15:59:00Z'));
    expect(() => shanghaiWallTime('2026-11-22 24:00')).toThrow(RangeError);
    expect(() => shanghaiWallTime('2026-11-31 09:00')).toThrow(RangeError);
  });

  it('writes the day as agreements do', () => {
    expect(shanghaiDateText(new Date('2026-11-21T16:00:00Z'))).toBe('2026年11月22日');
    expect(shanghaiDateText(new Date('2026-11-21T15:59:59Z'))).toBe('2026年11月21日');
    expect(shanghaiDateText(new Date('2027-01-05T00:00:00Z'))).toBe('2027年1月5日');
  });
});
