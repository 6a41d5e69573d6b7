import { AuthorizePage } from '@/app/flow/authorize-page';
import { MATCH_SESSION_KEYS } from '@/features/consent/matched-products';
import { useH5Config } from '@/lib/channel/store';

/**
 * `/fill-information/common-authorize` (options: adChannelCode, matchKey, or a partner's rqResult; the
 * spec's applyLimit and workCity are accepted and ignored, and our links never carry them: issue 44.6).
 */
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
