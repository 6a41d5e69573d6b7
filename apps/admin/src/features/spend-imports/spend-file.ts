/**
 * An ad platform's spend report as the console reads it in the browser (issue 48.2): the bytes decoded as UTF-8,
 * or — when they are not UTF-8, as Excel on a Chinese Windows saves "CSV" — as GB18030 (GBK's superset); the size
 * checked before anything is sent. (The reconciliation card reads its files the same way.)
 */
import { SPEND_MAX_CHARS } from '@lm/shared/schemas/spend-imports';

/** Files larger than this are refused before reading. */
export const SPEND_MAX_FILE_BYTES = 4 * 1024 * 1024;

export type ReadSpendFile = { text: string; encoding: 'utf-8' | 'gb18030' } | { problem: string };

export function decodeSpendBytes(bytes: Uint8Array): ReadSpendFile {
  if (bytes.byteLength > SPEND_MAX_FILE_BYTES)
    return { problem: `文件过大（超过 ${SPEND_MAX_FILE_BYTES / 1024 / 1024} MB），请按日期拆分后分别导入` };
  let text: string;
  let encoding: 'utf-8' | 'gb18030' = 'utf-8';
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    encoding = 'gb18030';
    text = new TextDecoder('gb18030').decode(bytes);
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (!text.trim()) return { problem: '文件是空的' };
  if (text.length > SPEND_MAX_CHARS)
    return { problem: `文件过大：最多 ${SPEND_MAX_CHARS} 个字符，请按日期拆分后分别导入` };
  return { text, encoding };
}
