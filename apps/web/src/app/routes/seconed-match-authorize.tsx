import { AuthorizePage } from '@/app/flow/authorize-page';
import { MATCH_SESSION_KEYS } from '@/features/consent/matched-products';
import { useH5Config } from '@/lib/channel/store';

/**
 * `/seconed-match-authorize`: the second authorisation (spec §4; features/consent/second-authorize.ts), from
 * `seconedProductMatchInfo` (a second match, directMatchType 3, stored only when it has an id). Its
 * consent names that second match's run; then the flow's result page — also reached without a second
 * consent by 跳过，查看结果 or the back arrow (the first consent's result).
 */
export function SecondMatchAuthorizeRoute() {
  const config = useH5Config();
  return (
    <AuthorizePage
      title="更多可申请机构"
      second
      sessionKey={MATCH_SESSION_KEYS.secondProductMatchInfo}
      successRoute={config.flowRoutes.success}
    />
  );
}
