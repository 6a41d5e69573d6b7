import { describe, expect, it } from 'vitest';
import { toCsv } from './csv';

describe('toCsv', () => {
  const cols = [
    { title: '名称', value: (r: { name: string; n: number | null }) => r.name },
    { title: '数量', value: (r: { name: string; n: number | null }) => r.n },
  ];

  it('starts with a BOM and separates rows with CRLF', () => {
    expect(toCsv([{ name: '渠道A', n: 3 }], cols)).toBe('\uFEFF名称,数量\r\n渠道A,3\r\n');
  });

  it('quotes commas, quotes and newlines; empty for null', () => {
    expect(toCsv([{ name: 'a,"b"\nc', n: null }], cols)).toBe('\uFEFF名称,数量\r\n"a,""b""\nc",\r\n');
  });

  it('defuses spreadsheet formulas but keeps negative numbers', () => {
    const out = toCsv(
      [
        { name: '=HYPERLINK("x")', n: -5 },
        { name: '-1.5', n: 0 },
      ],
      cols,
    );
    expect(out).toContain(`"'=HYPERLINK(""x"")",-5`);
    expect(out).toContain('\r\n-1.5,0\r\n');
  });
});
