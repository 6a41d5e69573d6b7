import { AuthorizePage } from '@/app/flow/authorize-page';
import { MATCH_SESSION_KEYS } from '@/features/consent/matched-products';
import { useH5Config } from '@/lib/channel/store';

/** `/fill-information/common-authorize` (options: adChannelCode, applyLimit, workCity, rqResult). */
export function CommonAuthorizeRoute() {
  const config = useH5Config();
  return (
    <AuthorizePage
      title="选择借款机构"
      sessionKey={MATCH_SESSION_KEYS.productMatchInfo}
      successRoute={config.flowRoutes.success}
    />
  );
}
