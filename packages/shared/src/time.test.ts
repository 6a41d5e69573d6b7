import { describe, expect, it } from 'vitest';
import { formatShanghai, shanghaiDay } from './time.ts';

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
  });
});
