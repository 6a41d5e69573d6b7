/**
 * What counts as going back, for a page that asks before someone leaves it (the result page's retention
 * popup): the browser's back within this site (a POP), or a page header's back arrow that goes to its
 * fallback page because there is no entry of this site to return to (it navigates with BACK_STATE).
 */

/** The location state of a page header's back arrow going to its fallback page. */
export const BACK_STATE = { back: true } as const;

export function isBackNavigation(historyAction: string, next: { state: unknown }): boolean {
  if (historyAction === 'POP') return true;
  const state = next.state;
  return typeof state === 'object' && state !== null && (state as { back?: unknown }).back === true;
}
