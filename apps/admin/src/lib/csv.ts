/**
 * CSV export of console tables (issue 7 "CSV export of every table"): RFC 4180 quoting, a UTF-8 BOM
 * so Excel opens Chinese text correctly, and formula-injection protection: a cell that starts with
 * = + - @, a tab or a carriage return, or with spaces and line breaks before = + - @ (spreadsheets skip
 * them and still read a formula), is prefixed with an apostrophe. Plain numbers (-5, -1.5) stay numbers.
 */
export interface CsvColumn<T> {
  title: string;
  value: (row: T) => string | number | boolean | null | undefined;
}

/** What a spreadsheet may read as a formula: = + - @ after any whitespace (spaces, tabs, line breaks …), a tab or a CR. */
const FORMULA_START = /^(?:[\t\r]|\s*[=+\-@])/;

function cell(v: string | number | boolean | null | undefined): string {
  if (v === null || v === undefined) return '';
  let s = String(v);
  if (FORMULA_START.test(s) && !/^-?\d+(\.\d+)?$/.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv<T>(rows: readonly T[], columns: readonly CsvColumn<T>[]): string {
  const lines = [columns.map((c) => cell(c.title)).join(',')];
  for (const row of rows) lines.push(columns.map((c) => cell(c.value(row))).join(','));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** Saves `csv` as a file in the browser. */
export function downloadCsv(fileName: string, csv: string): void {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName.endsWith('.csv') ? fileName : `${fileName}.csv`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
