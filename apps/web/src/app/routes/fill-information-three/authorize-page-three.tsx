import { AuthorizePage } from '@/app/flow/authorize-page';
import { MATCH_SESSION_KEYS } from '@/features/consent/matched-products';

/** `/fill-information-three/authorize-page-three`: formprocess3's re-match and authorisation. */
export function AuthorizePageThreeRoute() {
  return (
    <AuthorizePage
      title="确认借款机构"
      sessionKey={MATCH_SESSION_KEYS.productMatchInfo}
      successRoute="/fill-information-three/success-page"
    />
  );
}
