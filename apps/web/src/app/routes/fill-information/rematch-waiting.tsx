import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { ProgressPage } from '@/components/progress-page';
import { showApplyStatusModal } from '@/features/consent/apply-status-modal';
import { loadLinkedMatch } from '@/features/consent/linked-match';
import { MATCH_SESSION_KEYS, parseMatch, storeMatch } from '@/features/consent/matched-products';
import { readQueryOptions, withQuery } from '@/features/consent/query-options';
import { matchLinkOptions } from '@/features/flow/match-link';
import { useDelayedNavigate } from '@/hooks/use-delayed-navigate';
import { useH5Config } from '@/lib/channel/store';

/**
 * `/fill-information/rematch-waiting`: a returning applicant's re-match (spec §4 step 6; POST
 * /api/user/info/direct/match made by the post-login decision). The link carries the options
 * (adChannelCode and the match: its matchKey, or a partner's rqResult; an older link's applyLimit and
 * workCity are ignored); the result is stored as productMatchInfo, its APPLY_STATUS_MODAL shown, then
 * on to the authorisation with the match key only (issue 16.8: the result never travels in our links;
 * issue 44.6: nor the person's answers). The page waits for the match only (the tab's stored run, else
 * GET /api/user/info/match/{matchKey}), then the navigation delay (issue 44.13).
 */
export function RematchWaitingRoute() {
  const config = useH5Config();
  const success = config.flowRoutes.success;
  const { search } = useLocation();
  const go = useDelayedNavigate();
  const [done, setDone] = useState(false);
  const started = useRef(false);

  useEffect(() => {
    // Once per visit (the match is read once, its dialog shown once).
    if (started.current) return;
    started.current = true;
    void (async () => {
      const linkOptions = readQueryOptions(search);
      const result = await loadLinkedMatch(linkOptions, MATCH_SESSION_KEYS.productMatchInfo);
      setDone(true);
      const match = parseMatch(result);
      if (match.products.length > 0) storeMatch(MATCH_SESSION_KEYS.productMatchInfo, result);
      const after = await showApplyStatusModal(result);
      if (after.next === 'inline') {
        go(after.path, { replace: true });
        return;
      }
      go(
        after.next === 'proceed' && match.products.length > 0
          ? withQuery(
              '/fill-information/common-authorize',
              // The key and channel only: no answers, no partner's rqResult (issue 44.6).
              matchLinkOptions({ ...linkOptions, matchKey: match.matchKey }),
            )
          : withQuery(success, { revisit: 1, isNotFormReq: 1 }),
        { replace: true },
      );
    })();
  }, [search, success, go]);

  return (
    <ProgressPage
      title="正在为您重新匹配"
      subtitle="结合您上次提交的资料，为您查找新的可申请机构"
      steps={['读取申请资料', '查询可申请机构', '生成匹配结果']}
      done={done}
    />
  );
}
