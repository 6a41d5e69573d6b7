import { describe, expect, it } from 'vitest';
import { decodeSpendBytes } from './spend-file';

describe('decodeSpendBytes', () => {
  it('UTF-8 (a BOM dropped) and GBK', () => {
    const utf8 = new TextEncoder().encode('\ufeff日期,渠道编码,消耗(元)\n');
    expect(decodeSpendBytes(utf8)).toEqual({ text: '日期,渠道编码,消耗(元)\n', encoding: 'utf-8' });
    // "日期" in GBK.
    const gbk = new Uint8Array([0xc8, 0xd5, 0xc6, 0xda]);
    expect(decodeSpendBytes(gbk)).toEqual({ text: '日期', encoding: 'gb18030' });
  });

  it('refuses an empty or oversized file', () => {
    expect(decodeSpendBytes(new TextEncoder().encode('  \n'))).toEqual({ problem: '文件是空的' });
    expect(decodeSpendBytes(new Uint8Array(5 * 1024 * 1024))).toMatchObject({
      problem: expect.stringContaining('文件过大'),
    });
  });
});
