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

  it('defuses formulas behind leading spaces, tabs and line breaks', () => {
    const cells = [
      ' =1+1',
      '  +SUM(A1:A2)',
      '\t-2+3',
      '\n@SUM(A1)',
      '\r\n=cmd|"/c calc"!A1',
      ' \n\t =HYPERLINK("x")',
      '\u3000=1+1',
    ];
    for (const name of cells) {
      const out = toCsv([{ name, n: 1 }], cols);
      const line = out.split('\r\n').slice(1, -1).join('\r\n');
      const value = line.startsWith('"') ? line.slice(1, line.lastIndexOf('"')).replaceAll('""', '"') : line;
      expect(value.startsWith(`'${name}`), JSON.stringify(name)).toBe(true);
    }
  });

  it('leaves text with inner spaces or signs and plain numbers alone', () => {
    const out = toCsv(
      [
        { name: '渠道 A = B', n: -5 },
        { name: ' 深圳', n: 0 },
        { name: 'a-b@c', n: 1 },
      ],
      cols,
    );
    expect(out).toBe('\uFEFF名称,数量\r\n渠道 A = B,-5\r\n 深圳,0\r\na-b@c,1\r\n');
  });
});
