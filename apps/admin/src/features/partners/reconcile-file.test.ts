import { RECONCILE_MAX_CHARS } from '@lm/shared/reconcile';
import { describe, expect, it } from 'vitest';
import { decodeCsvBytes, RECONCILE_MAX_FILE_BYTES } from './reconcile-file';

const utf8 = (s: string) => new TextEncoder().encode(s);

describe('decodeCsvBytes', () => {
  it('reads UTF-8, dropping a BOM, and counts the data rows', () => {
    expect(decodeCsvBytes(utf8('\uFEFF线索编号,状态\r\nL1,已放款\r\n\r\nL2,未通过\r\n'))).toEqual({
      text: '线索编号,状态\r\nL1,已放款\r\n\r\nL2,未通过\r\n',
      encoding: 'utf-8',
      rows: 2,
    });
  });
  it('reads a GBK file (Excel on a Chinese Windows) as GB18030', () => {
    // "状态\r\n已放款" in GBK.
    const gbk = new Uint8Array([0xd7, 0xb4, 0xcc, 0xac, 0x0d, 0x0a, 0xd2, 0xd1, 0xb7, 0xc5, 0xbf, 0xee]);
    expect(decodeCsvBytes(gbk)).toEqual({ text: '状态\r\n已放款', encoding: 'gb18030', rows: 1 });
  });
  it('refuses an empty file and one too large, in words', () => {
    expect(decodeCsvBytes(utf8(' \n'))).toEqual({ problem: '文件是空的' });
    expect(decodeCsvBytes(new Uint8Array(RECONCILE_MAX_FILE_BYTES + 1))).toMatchObject({
      problem: expect.stringContaining('文件过大'),
    });
    expect(decodeCsvBytes(utf8('a'.repeat(RECONCILE_MAX_CHARS + 1)))).toMatchObject({
      problem: expect.stringContaining(`最多 ${RECONCILE_MAX_CHARS} 个字符`),
    });
  });
});
