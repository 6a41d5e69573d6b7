/**
 * The waiting pages' ring as a pure function of time (issue 44.13: a waiting page holds no longer than
 * its work plus the spec's navigation delay). While the work runs the ring climbs towards
 * PENDING_CEILING without reaching it (it never claims to be done); once the work answered it runs to
 * 100 % within FINISH_MS, which is shorter than the navigation delay (spec §9: 500 ms) the page then
 * waits before going on — so the person sees 100 % and the next page follows at answer + 500 ms.
 */

/** The ring's ceiling while the work runs (percent). */
export const PENDING_CEILING = 90;
/** Time to half of the ceiling while the work runs. */
export const PENDING_HALF_MS = 1200;
/** From the work's answer to 100 %: within the navigation delay (500 ms). */
export const FINISH_MS = 400;

const easeOut = (t: number) => 1 - (1 - t) ** 3;

/** The percent while the work has been running for `elapsedMs`: below PENDING_CEILING, rising. */
export function pendingPercent(elapsedMs: number): number {
  const t = Math.max(0, elapsedMs);
  return PENDING_CEILING * (1 - 2 ** (-t / PENDING_HALF_MS));
}

/**
 * The ring's whole percent `elapsedMs` after the page opened; `doneAtMs` is when the work answered
 * (null while it runs). 100 exactly from doneAtMs + FINISH_MS on, never before the work answered.
 */
export function progressAt(elapsedMs: number, doneAtMs: number | null): number {
  if (doneAtMs === null || elapsedMs < doneAtMs) {
    return Math.min(PENDING_CEILING - 1, Math.floor(pendingPercent(elapsedMs)));
  }
  const from = pendingPercent(doneAtMs);
  const f = Math.min(1, (elapsedMs - doneAtMs) / FINISH_MS);
  return f >= 1 ? 100 : Math.min(99, Math.floor(from + (100 - from) * easeOut(f)));
}
