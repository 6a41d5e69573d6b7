import { useCallback } from 'react';
import { showApplyStatusModal } from '@/features/consent/apply-status-modal';
import { type AuthAnswer, recordConsent } from '@/features/consent/consent-result';
import {
  hasMatchId,
  MATCH_SESSION_KEYS,
  type ParsedMatch,
  parseMatch,
  safeSession,
  storeMatch,
} from '@/features/consent/matched-products';
import { withQuery } from '@/features/consent/query-options';
import { shouldOpenSecondAuthorize } from '@/features/consent/second-authorize';
import { DirectMatchType, rematchProducts } from '@/features/flow/api/rematch-products';
import { rePageShowType } from '@/features/flow/decide';
import { useDelayedNavigate } from '@/hooks/use-delayed-navigate';
import { reportStep } from '@/lib/analytics/reporter';
import { useChannelStore } from '@/lib/channel/store';
import { isHuaweiPhone } from '@/lib/device';

export const SECOND_AUTHORIZE_ROUTE = '/seconed-match-authorize';

/**
 * The flow's result page after a consent, with rePageShowType (spec §4 step 6): where a consent ends,
 * and where the second authorisation's 跳过，查看结果 and back arrow go.
 */
export function resultPathOf(successRoute: string): string {
  const config = useChannelStore.getState().config;
  return withQuery(successRoute, { rePageShowType: rePageShowType(config, isHuaweiPhone()) });
}

interface AfterConsent {
  /** The match consented to (its companyType decides the second authorisation). */
  match: ParsedMatch;
  answer: AuthAnswer;
  adChannelCode: string;
  /** The flow's result page. */
  successRoute: string;
  /** This was the second authorisation: never open another. */
  second?: boolean;
}

/**
 * What follows a consent: the answer is kept for the result page (and its H5-redirect lenders'
 * pages vouched for /inline-page), then either the second authorisation (spec §4; second-authorize.ts)
 * or the flow's result page with rePageShowType.
 *
 * The second match (directMatchType 3) is stored in seconedProductMatchInfo only when it has an id
 * (spec §4). Its APPLY_STATUS_MODAL is shown only then: a "sold out" second match has no id, and an
 * alert about offers the person never saw, right after a successful application, would mislead.
 */
export function useAfterConsent() {
  const go = useDelayedNavigate();
  return useCallback(
    async ({ match, answer, adChannelCode, successRoute, second = false }: AfterConsent) => {
      recordConsent(answer);
      void reportStep('authorize');
      const result = resultPathOf(successRoute);
      const session = safeSession();
      const opened = session?.getItem(MATCH_SESSION_KEYS.openSecondAuthorize) === '1';
      if (
        !second &&
        shouldOpenSecondAuthorize({ companyType: match.companyType, adChannelCode, alreadyOpened: opened })
      ) {
        try {
          session?.setItem(MATCH_SESSION_KEYS.openSecondAuthorize, '1');
        } catch {
          // Storage unavailable: at worst the second authorisation is offered again.
        }
        const again = await rematchProducts(adChannelCode, DirectMatchType.SECOND_MATCH).catch(() => null);
        if (hasMatchId(again)) {
          storeMatch(MATCH_SESSION_KEYS.secondProductMatchInfo, again);
          const after = await showApplyStatusModal(again);
          if (after.next === 'inline') {
            go(after.path, { replace: true });
            return;
          }
          if (after.next === 'proceed' && parseMatch(again).products.length > 0) {
            go(SECOND_AUTHORIZE_ROUTE, { replace: true });
            return;
          }
        }
      }
      go(result, { replace: true });
    },
    [go],
  );
}
