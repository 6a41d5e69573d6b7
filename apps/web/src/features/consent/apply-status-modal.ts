import { useEffect } from 'react';
import { useDelayedNavigate } from '@/hooks/use-delayed-navigate';
import {
  type AfterApplyStatus,
  APPLY_STATUS_TEXT,
  afterApplyStatus,
  applyStatusAction,
} from './apply-status';
import { vouchPartnerUrl } from './consent-result';
import { safeSession } from './matched-products';

/**
 * antd-mobile's Dialog (and its animation library) is loaded when a dialog is due, not with the
 * pages that may show one (the form, the authorise page: most visits show none).
 */
const loadDialog = () =>
  import('antd-mobile/es/components/dialog').then(
    (m) => m.default,
    () => null,
  );

/** The match run whose dialog was shown (a re-match link passes its result on to the next page). */
const SHOWN_KEY = 'applyStatusModalShown';

function matchIdOf(result: unknown): string | null {
  const id = result && typeof result === 'object' ? (result as { matchId?: unknown }).matchId : null;
  return typeof id === 'number' && id > 0 ? String(id) : null;
}

/** Marks the run's dialog as shown; false when it already was (then it is not shown again). */
function firstTime(result: unknown): boolean {
  const id = matchIdOf(result);
  if (!id) return true;
  try {
    const session = safeSession();
    if (session?.getItem(SHOWN_KEY) === id) return false;
    session?.setItem(SHOWN_KEY, id);
  } catch {
    // Storage unavailable: shown again at worst.
  }
  return true;
}

export type { AfterApplyStatus } from './apply-status';

/**
 * Shows the dialog a match result asks for (apply-status.ts), once per match run, and resolves with
 * what to do next.
 */
export async function showApplyStatusModal(result: unknown): Promise<AfterApplyStatus> {
  const action = applyStatusAction(result);
  if (action.kind === 'none' || !firstTime(result)) return afterApplyStatus(action, false);
  // Without the component (its chunk failed to load on a bad network) the browser's own dialogs ask.
  const Dialog = await loadDialog();
  if (action.kind === 'soldOut') {
    if (Dialog) {
      await Dialog.alert({
        title: APPLY_STATUS_TEXT.soldOutTitle,
        content: APPLY_STATUS_TEXT.soldOut,
        confirmText: '我知道了',
      });
    } else {
      window.alert(APPLY_STATUS_TEXT.soldOut);
    }
    return afterApplyStatus(action, false);
  }
  // Our server named this page (the lender's own page for an already-registered person).
  vouchPartnerUrl(action.url);
  if (!Dialog)
    return afterApplyStatus(
      action,
      window.confirm(APPLY_STATUS_TEXT.registered(action.lenderName, action.productName)),
    );
  const confirmed = await Dialog.confirm({
    title: APPLY_STATUS_TEXT.registeredTitle,
    content: APPLY_STATUS_TEXT.registered(action.lenderName, action.productName),
    confirmText: APPLY_STATUS_TEXT.registeredConfirm,
    cancelText: APPLY_STATUS_TEXT.registeredCancel,
  });
  return afterApplyStatus(action, confirmed);
}

/**
 * A page reached with a re-match result in its link (spec §4 step 6: fenqile, formprocess3/4 go
 * straight to their authorise route) shows that result's dialog on arrival, once per match run.
 */
export function useApplyStatusOnArrival(result: unknown): void {
  const go = useDelayedNavigate();
  useEffect(() => {
    if (applyStatusAction(result).kind === 'none') return;
    void showApplyStatusModal(result).then((after) => {
      if (after.next === 'inline') go(after.path, { replace: true });
    });
  }, [result, go]);
}
