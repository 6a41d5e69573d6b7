import { useLocation } from 'react-router';
import { parseMatchedProducts } from '@/app/common/matched-products';
import { ProgressPage } from '@/app/common/progress-page';
import { readQueryOptions, withQuery } from '@/app/common/query-options';
import { useDelayedNavigate } from '@/app/common/use-delayed-navigate';
import { useH5Config } from '@/features/channel/store';

/**
 * `/fill-information/rematch-waiting`: a returning applicant's re-match (spec §4 step 6). The link
 * carries the options (adChannelCode, applyLimit, workCity, rqResult); they go on to the authorisation.
 */
export function RematchWaitingRoute() {
  const config = useH5Config();
  const { search } = useLocation();
  const go = useDelayedNavigate();
  return (
    <ProgressPage
      title="正在为您重新匹配"
      subtitle="结合您上次提交的资料，为您查找新的可申请机构"
      steps={['读取申请资料', '查询可申请机构', '生成匹配结果']}
      onDone={() => {
        const options = readQueryOptions(search);
        const matched = parseMatchedProducts(options.rqResult).length > 0;
        go(
          matched
            ? withQuery('/fill-information/common-authorize', options)
            : withQuery(config.flowRoutes.success, { revisit: 1 }),
          {
            replace: true,
          },
        );
      }}
    />
  );
}
