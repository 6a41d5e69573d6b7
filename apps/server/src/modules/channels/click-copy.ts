import { copyText } from '../../db/client.ts';
import type { ClickRow } from './clicks.ts';

/** The columns of a click's COPY line, in its order. */
export const CLICK_COLUMNS = [
  'ad_channel_code',
  'fingerprint_hash',
  'day',
  'ab_test_type',
  'flagged',
  'ip',
  'created_at',
] as const;

/** A click as one line of COPY's text format (CLICK_COLUMNS, tab-separated, `\N` for null, ending in `\n`). */
export function clickCopyLine(r: ClickRow): string {
  return `${copyText(r.adChannelCode)}\t${copyText(r.fingerprintHash)}\t${r.day}\t${copyText(r.abTestType)}\t${r.fingerprintHash === null ? 't' : 'f'}\t${copyText(r.ip)}\t${r.at.toISOString()}\n`;
}

const copyField = (field: string): string | null =>
  field === '\\N'
    ? null
    : field.replace(/\\(.)/g, (_, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : c === 'r' ? '\r' : c));

/**
 * The clicks of lines made by `clickCopyLine`, back as rows: for the insert a COPY that a stored key refused
 * falls back to (ADR 040, 052). Throws on a line it did not make.
 */
export function parseClickCopy(text: string): ClickRow[] {
  const rows: ClickRow[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const f = line.split('\t');
    const [code, hash, day, ab, , ip, at] = f.map(copyField);
    if (f.length !== CLICK_COLUMNS.length || code == null || day == null || ip == null || at == null)
      throw new Error(`not a click's COPY line: ${line.slice(0, 80)}`);
    rows.push({
      adChannelCode: code,
      fingerprintHash: hash ?? null,
      day,
      abTestType: ab == null ? null : Number(ab),
      ip,
      at: new Date(at),
    });
  }
  return rows;
}
