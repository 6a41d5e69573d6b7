import { shanghaiMinuteOfDay } from '@lm/shared/time';
import { parseHhmm } from './publish.ts';
import type { Product } from './types.ts';

/** Active hours of a product (Shanghai wall-clock time): `HH:MM` read without a regular expression. */

export const C0 = 48; // '0'
const COLON = 58; // ':'

/**
 * parseHhmm (publish.ts) without the regular expression: minutes after midnight of `HH:MM`
 * (00:00–23:59), or null when malformed.
 */
export function hhmmMinutes(value: string): number | null {
  if (typeof value !== 'string') return parseHhmm(value);
  if (value.length !== 5 || value.charCodeAt(2) !== COLON) return null;
  const h1 = value.charCodeAt(0) - C0;
  const h2 = value.charCodeAt(1) - C0;
  const m1 = value.charCodeAt(3) - C0;
  const m2 = value.charCodeAt(4) - C0;
  if (h1 < 0 || h1 > 2 || h2 < 0 || h2 > 9 || m1 < 0 || m1 > 5 || m2 < 0 || m2 > 9) return null;
  if (h1 === 2 && h2 > 3) return null;
  return (h1 * 10 + h2) * 60 + m1 * 10 + m2;
}

/** Active hours as a table keeps them: open all day, closed (malformed), or a window. */
export const ALL_DAY = 0;
export const CLOSED = 1;
export const WINDOW = 2;

/** Whether the window is open at `minute` after Shanghai midnight (see isWithinActiveHours). */
export function openAt(activeHours: Product['activeHours'], minute: number): boolean {
  if (!activeHours) return true;
  const from = hhmmMinutes(activeHours.from);
  const to = hhmmMinutes(activeHours.to);
  if (from === null || to === null) return false;
  if (from === to) return true;
  return from < to ? minute >= from && minute < to : minute >= from || minute < to;
}

/**
 * Whether `now` is inside the Shanghai window: `from` inclusive, `to` exclusive; a window with
 * from > to spans midnight; from = to is open all day; no window is open all day. A malformed
 * window is closed.
 */
export function isWithinActiveHours(activeHours: Product['activeHours'], now: Date): boolean {
  return openAt(activeHours, shanghaiMinuteOfDay(now));
}
