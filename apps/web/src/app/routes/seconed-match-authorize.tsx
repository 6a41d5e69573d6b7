import { AuthorizePage } from '@/app/flow/authorize-page';
import { MATCH_SESSION_KEYS } from '@/features/consent/matched-products';
import { useH5Config } from '@/lib/channel/store';
import styles from '@/styles/forms.module.css';

/**
 * `/seconed-match-authorize`: the second authorisation (spec §4; features/consent/second-authorize.ts), from
 * `seconedProductMatchInfo` (a second match, directMatchType 3, stored only when it has an id). Its
 * consent names that second match's run; then the flow's result page.
 */
export function SecondMatchAuthorizeRoute() {
  const config = useH5Config();
  return (
    <AuthorizePage
      title="更多可申请机构"
      second
      sessionKey={MATCH_SESSION_KEYS.secondProductMatchInfo}
      successRoute={config.flowRoutes.success}
      intro={
        <p className={styles.intro}>
          根据您的资质，以下机构也可为您提供服务。是否向这些机构提供信息由您决定，不勾选则不会提供。
        </p>
      }
    />
  );
}
