import { AuthorizePage } from '@/app/common/authorize-page';
import styles from '@/app/common/forms.module.css';
import { MATCH_SESSION_KEYS } from '@/app/common/matched-products';
import { useH5Config } from '@/features/channel/store';

/** `/seconed-match-authorize`: the second authorisation (spec §4), from `seconedProductMatchInfo`. */
export function SecondMatchAuthorizeRoute() {
  const config = useH5Config();
  return (
    <AuthorizePage
      title="更多可申请机构"
      sessionKey={MATCH_SESSION_KEYS.secondProductMatchInfo}
      successRoute={config.flowRoutes.success}
      intro={<p className={styles.intro}>根据您的资质，以下机构也可为您提供服务，同时申请可提高成功率。</p>}
    />
  );
}
