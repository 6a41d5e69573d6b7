import { describe, expect, it } from 'vitest';
import { clickCopyLine, parseClickCopy } from './click-copy.ts';
import type { ClickRow } from './clicks.ts';

const click = (over: Partial<ClickRow> = {}): ClickRow => ({
  adChannelCode: 'demo',
  fingerprintHash: 'a1b2',
  day: '2026-11-29',
  abTestType: 2,
  ip: '10.0.0.1',
  at: new Date('2026-11-29T14:05:06.789Z'),
  ...over,
});

describe('a click as a COPY line and back', () => {
  it('writes the columns tab-separated, a flagged click (no fingerprint) with \\N and flagged t', () => {
    expect(clickCopyLine(click())).toBe('demo\ta1b2\t2026-11-29\t2\tf\t10.0.0.1\t2026-11-29T14:05:06.789Z\n');
    expect(clickCopyLine(click({ fingerprintHash: null, abTestType: null }))).toBe(
      'demo\t\\N\t2026-11-29\t\\N\tt\t10.0.0.1\t2026-11-29T14:05:06.789Z\n',
    );
  });

  it('reads back every row as it was, escapes and nulls included', () => {
    const rows = [
      click(),
      click({ fingerprintHash: null, abTestType: null, ip: '2001:db8::1' }),
      click({ adChannelCode: 'a\tb\\c\nd\re', abTestType: 0, ip: '\\N' }),
      click({ adChannelCode: '渠道', at: new Date('2026-11-28T16:00:00.000Z') }),
    ];
    expect(parseClickCopy(rows.map(clickCopyLine).join(''))).toEqual(rows);
  });

  it('refuses a line it did not write', () => {
    expect(() => parseClickCopy('demo\ta1b2\n')).toThrow("not a click's COPY line");
    expect(parseClickCopy('')).toEqual([]);
  });
});
