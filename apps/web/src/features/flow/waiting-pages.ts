/**
 * The waiting pages and the navigation delay (issue 44.13). Spec §9: navigation happens after a delay,
 * 500 ms by default. A step that goes through a waiting page takes that delay once: the waiting page
 * is opened at once (it is the feedback while the work runs) and leaves its work's answer plus the
 * delay later, while its ring completes. So no step waits more than its work plus 0.5 s.
 */
import { SPECIAL_ROUTES } from '@lm/shared/channel';
import { NAVIGATION_DELAY_MS } from '@/config/constants';

/** Pages that show the work of a step (progress ring or face check) and then go on by themselves. */
export const WAITING_PAGES: readonly string[] = [
  '/fill-information/waiting',
  '/fill-information/rematch-waiting',
  SPECIAL_ROUTES.haierAutoForm,
  SPECIAL_ROUTES.faceVerificationLoading,
  '/credit-process/credit-personal-loading',
  '/fill-information-three/loading',
];

const pathOf = (to: string) => to.split(/[?#]/, 1)[0]!.replace(/\/+$/, '') || '/';

/** The delay before navigating to `to`: none into a waiting page (it holds the delay), else spec §9's. */
export function delayBefore(to: string): number {
  return WAITING_PAGES.includes(pathOf(to)) ? 0 : NAVIGATION_DELAY_MS;
}
