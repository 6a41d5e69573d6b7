import { describe, expect, it } from 'vitest';
import { shanghaiDate } from './time';

describe('shanghaiDate', () => {
  it('is the Asia/Shanghai calendar day (UTC+8), whatever the device zone', () => {
    expect(shanghaiDate(Date.parse('2026-03-01T15:59:59.999Z'))).toBe('2026-03-01');
    expect(shanghaiDate(Date.parse('2026-03-01T16:00:00.000Z'))).toBe('2026-03-02');
    expect(shanghaiDate(Date.parse('2026-12-31T23:00:00Z'))).toBe('2027-01-01');
  });
});
