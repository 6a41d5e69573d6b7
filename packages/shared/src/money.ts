/**
 * Money rules (issue 48.7, ADR 073): amounts are integer fen, rates basis points (1 bp = 0.01 %), months
 * Shanghai months. The one place the server, the console and the H5 turn fen into yuan text and back, take a
 * rate of an amount and name an event's month. No floating point touches an amount: rates are taken with
 * `BigInt`, yuan text is read digit by digit.
 *
 * The H5's legacy build runs this file in ES5 engines (through outcomes.ts): `BigInt(…)` calls only, never
 * `123n` literals, which those engines cannot parse; only `bpsOf` needs BigInt, and the H5 never calls it.
 */
import { shanghaiDate } from './time.ts';

/** Basis points in a whole: 10 000 bps = 100 %. */
export const BPS_WHOLE = 10_000;

/**
 * The largest amount the money rules promise to be exact for: 10^13 fen (100 000 000 000 元). Any safe
 * integer is taken; beyond this bound a result may leave the safe integers and is refused.
 */
export const MAX_EXACT_FEN = 10_000_000_000_000;

/**
 * `fen × bps / 10 000`, rounded half away from zero, in integer fen: bpsOf(1_234_567, 150) = 18 519 (18 518.505
 * rounds up), bpsOf(-3, 5_000) = -2. Computed with BigInt, so it is exact for every amount up to
 * MAX_EXACT_FEN and beyond; RangeError for a non-integer input or a result outside the safe integers.
 * ADR 073: rounding happens once, on the ledger entry; sums are of rounded entries.
 */
export function bpsOf(fen: number, bps: number): number {
  if (!Number.isSafeInteger(fen)) throw new RangeError(`not an amount in fen: ${fen}`);
  if (!Number.isSafeInteger(bps)) throw new RangeError(`not a rate in basis points: ${bps}`);
  const product = BigInt(fen) * BigInt(bps);
  const negative = product < BigInt(0);
  const magnitude = negative ? -product : product;
  const whole = BigInt(BPS_WHOLE);
  let quotient = magnitude / whole;
  // Half away from zero: a remainder of at least half the divisor rounds the magnitude up.
  if ((magnitude % whole) * BigInt(2) >= whole) quotient += BigInt(1);
  const result = Number(negative ? -quotient : quotient);
  if (!Number.isSafeInteger(result)) throw new RangeError(`rate of ${fen} fen out of range`);
  return result === 0 ? 0 : result; // never -0
}

/** The result of reading an amount: integer fen, or the reason it cannot be read (Chinese, names the text). */
export type YuanParse = { fen: number } | { problem: string };

export interface YuanParseOptions {
  /** The largest amount taken (fen); default MAX_EXACT_FEN. */
  maxFen?: number;
}

/**
 * An amount in yuan as people write it — `12345.67`, `12,345.6`, `100`, `¥12345`, `12345.6元`, `1.` — into
 * integer fen, exactly: the decimal text is read digit by digit, never through a float. A reason instead when
 * it is negative, not a number (`1e5`, `1,2345`), has more than two decimals or is above `maxFen`.
 * (The reconciliation CSV reads its amounts with this; issue 47.4.)
 */
export function yuanTextToFen(text: string, options: YuanParseOptions = {}): YuanParse {
  const shown = text.trim();
  let s = shown.replace(/^[¥￥]\s*/, '').replace(/\s*元$/, '');
  if (s.startsWith('-')) return { problem: `金额「${shown}」不能为负数` };
  if (/^\d{1,3}(,\d{3})+(\.\d*)?$/.test(s)) s = s.replace(/,/g, '');
  const m = /^(\d+)(?:\.(\d*))?$/.exec(s);
  if (!m) return { problem: `金额「${shown}」不是数字（以元为单位，如 12345.67）` };
  const fraction = m[2] ?? '';
  if (fraction.length > 2) return { problem: `金额「${shown}」最多两位小数（元）` };
  const fen = BigInt(m[1]!) * BigInt(100) + BigInt(fraction.padEnd(2, '0') || '0');
  if (fen > BigInt(options.maxFen ?? MAX_EXACT_FEN)) return { problem: `金额「${shown}」过大` };
  return { fen: Number(fen) };
}

export interface YuanTextOptions {
  /** Thousands separated by commas: "12,345.67". */
  grouping?: boolean;
  /** " 元" after the figure. */
  unit?: boolean;
  /** "20,000" rather than "20,000.00" when there are no cents. */
  trimZeroCents?: boolean;
}

/**
 * Integer fen as yuan text, exactly (integer arithmetic, no Intl: the H5's oldest engines may lack it). Plain
 * by default — "12345.67", "0.05", "-1.50", what an ad platform's `pay_amount` and a console amount field
 * take, and what yuanTextToFen reads back; with options as the console and the person's record write it:
 * `{grouping, unit}` "12,345.67 元", `{grouping, unit, trimZeroCents}` "20,000 元". A fraction of a fen is
 * cut off (amounts are integers).
 */
export function fenToYuanText(fen: number, options: YuanTextOptions = {}): string {
  const abs = Math.abs(Math.trunc(fen));
  const whole = String(Math.floor(abs / 100));
  const cents = abs % 100;
  const figure = options.grouping ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : whole;
  const fraction = options.trimZeroCents && cents === 0 ? '' : `.${cents < 10 ? '0' : ''}${cents}`;
  const sign = fen < 0 && abs > 0 ? '-' : '';
  return `${sign}${figure}${fraction}${options.unit ? ' 元' : ''}`;
}

/**
 * Basis points as a percentage text people type and read, exactly: 150 → "1.5", 1234 → "12.34",
 * 10 000 → "100" (what percentTextToBps reads back).
 */
export function bpsToPercentText(bps: number): string {
  const abs = Math.abs(Math.trunc(bps));
  const cents = abs % 100;
  const fraction = cents === 0 ? '' : `.${String(cents).padStart(2, '0').replace(/0$/, '')}`;
  return `${bps < 0 && abs > 0 ? '-' : ''}${Math.floor(abs / 100)}${fraction}`;
}

/**
 * A percentage as typed — "1.5", "12.34", "100", "1.5%" — into basis points, exactly (at most two decimals:
 * 0.01 % = 1 bp); a reason instead when it is not such a number.
 */
export function percentTextToBps(text: string): { bps: number } | { problem: string } {
  const shown = text.trim();
  const s = shown.replace(/\s*[%％]$/, '');
  if (s.startsWith('-')) return { problem: `比例「${shown}」不能为负数` };
  const m = /^(\d{1,7})(?:\.(\d*))?$/.exec(s);
  if (!m) return { problem: `比例「${shown}」不是数字（百分比，如 1.5）` };
  const fraction = m[2] ?? '';
  if (fraction.length > 2) return { problem: `比例「${shown}」最多两位小数（0.01% 为 1 个基点）` };
  return { bps: Number(m[1]) * 100 + Number(fraction.padEnd(2, '0') || '0') };
}

/** 'YYYY-MM': the Shanghai month containing `at` (a ledger entry's month, ADR 073). */
export function shanghaiMonthOf(at: Date = new Date()): string {
  return shanghaiDate(at).slice(0, 7);
}
