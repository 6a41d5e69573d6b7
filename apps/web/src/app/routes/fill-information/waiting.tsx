import { useEffect } from 'react';
import { ProgressPage } from '@/components/progress-page';
import { MATCH_SESSION_KEYS, readMatchedProducts } from '@/features/consent/matched-products';
import { useDelayedNavigate } from '@/hooks/use-delayed-navigate';
import { useH5Config } from '@/lib/channel/store';

/**
 * `/fill-information/waiting`: after the form, on to authorise or the result. The match was made by
 * the form's save (its answer is stored): nothing is left to wait for here but the navigation delay
 * (spec §9, 500 ms), while the ring completes (issue 44.13).
 */
export function FillInformationWaitingRoute() {
  const config = useH5Config();
  const go = useDelayedNavigate();
  const success = config.flowRoutes.success;
  useEffect(() => {
    const matched = readMatchedProducts(MATCH_SESSION_KEYS.productMatchInfo).length > 0;
    go(matched ? '/fill-information/common-authorize' : success, { replace: true });
  }, [go, success]);
  return (
    <ProgressPage
      title="正在为您匹配机构"
      subtitle="根据您的资料筛选合适的持牌机构"
      steps={['资料已提交', '评估借款需求', '匹配合作机构', '生成匹配结果']}
      done
    />
  );
}
