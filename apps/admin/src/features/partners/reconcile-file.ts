/**
 * The lender's reconciliation file as the console reads it in the browser (issue 47.4): the bytes decoded as
 * UTF-8, or — when they are not UTF-8, as Excel on a Chinese Windows saves "CSV" — as GB18030 (GBK's superset);
 * the size checked before anything is sent.
 */
import { RECONCILE_MAX_CHARS } from '@lm/shared/reconcile';

/** Files larger than this are refused before reading (the text may not exceed RECONCILE_MAX_CHARS anyway). */
export const RECONCILE_MAX_FILE_BYTES = 3 * 1024 * 1024;

export type ReadCsv = { text: string; encoding: 'utf-8' | 'gb18030'; rows: number } | { problem: string };

/** The rows of a CSV text as a person counts them: non-blank lines after the header (quoted breaks aside). */
function dataLines(text: string): number {
  return Math.max(0, text.split(/\r\n|\n|\r/).filter((l) => l.trim() !== '').length - 1);
}

export function decodeCsvBytes(bytes: Uint8Array): ReadCsv {
  if (bytes.byteLength > RECONCILE_MAX_FILE_BYTES)
    return {
      problem: `文件过大（超过 ${RECONCILE_MAX_FILE_BYTES / 1024 / 1024} MB），请按日期拆分后分别对账`,
    };
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
  if (text.length > RECONCILE_MAX_CHARS)
    return { problem: `文件过大：最多 ${RECONCILE_MAX_CHARS} 个字符，请按日期拆分后分别对账` };
  return { text, encoding, rows: dataLines(text) };
}
