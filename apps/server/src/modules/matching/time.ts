import { shanghaiMinuteOfDay } from '@lm/shared/time';
import { parseHhmm } from './publish.ts';
import type { Product } from './types.ts';

/** Active hours of a product (Shanghai wall-clock time, `HH:MM` read by publish.ts's parseHhmm). */

/** A digit's character code minus this is the digit. */
export const C0 = 48; // '0'

/** Active hours as a table keeps them: open all day, closed (malformed), or a window. */
export const ALL_DAY = 0;
export const CLOSED = 1;
export const WINDOW = 2;

/** Whether the window is open at `minute` after Shanghai midnight (see isWithinActiveHours). */
export function openAt(activeHours: Product['activeHours'], minute: number): boolean {
  if (!activeHours) return true;
  const from = parseHhmm(activeHours.from);
  const to = parseHhmm(activeHours.to);
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
