import Button from 'antd-mobile/es/components/button';
import { Link, useNavigate } from 'react-router';
import { quotaPath } from '@/app/flow/require-login';
import { PrimaryButton } from '@/components/primary-button';
import { useDeviceReport } from '@/features/reporting/use-device-report';
import { APR_LINE } from '@/features/skins/copy';
import { useChannelStore } from '@/lib/channel/store';
import { isLoggedIn } from '@/lib/session';
import { useApplyDetail } from './api/get-apply-detail';
import styles from './apply.module.css';
import { limitLabel } from './limit-choices';

/** The apply section's brand mark. */
export function ApplyBrand() {
  return (
    <p className={styles.brand}>
      <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <circle cx="12" cy="12" r="11" fill="rgba(255,255,255,.3)" />
        <path
          d="M8 7l4 5 4-5M8 13h8M12 12v6"
          fill="none"
          stroke="#fff"
          strokeWidth="2"
          strokeLinecap="round"
        />
      </svg>
      借款助手
    </p>
  );
}

/** The call to action for where the person stands (logged out, not submitted, submitted). */
function HomeAction() {
  const navigate = useNavigate();
  const code = useChannelStore((s) => s.adChannelCode);
  const detail = useApplyDetail();
  if (!isLoggedIn()) {
    return (
      <Button block color="primary" shape="rounded" size="large" onClick={() => navigate(quotaPath(code))}>
        登录后立即申请
      </Button>
    );
  }
  if (detail.isLoading) {
    return (
      <Button block color="primary" shape="rounded" size="large" loading disabled>
        加载中
      </Button>
    );
  }
  const submitted = detail.data && detail.data.submitStatus !== 0;
  const chosen = limitLabel(detail.data?.applyLimit);
  return (
    <>
      {chosen && !submitted && <p className={styles.note}>已选择额度：{chosen}，可继续完成申请</p>}
      <PrimaryButton onClick={() => navigate(submitted ? '/apply_result' : '/apply_limit')}>
        {submitted ? '查看审核结果' : chosen ? '继续申请' : '立即申请'}
      </PrimaryButton>
    </>
  );
}

/** `/apply_home`: the apply section's home (the step list and where the person stands). */
export function ApplyHomeRoute() {
  useDeviceReport();
  return (
    <main className={styles.page}>
      <header className={styles.hero}>
        <ApplyBrand />
        <h1>
          最高可借<strong>20</strong>万
        </h1>
        <p>{APR_LINE}</p>
      </header>
      <section className={styles.card}>
        <h2 className={styles.cardTitle}>四步完成申请</h2>
        <ol className={styles.list}>
          <li>额度评估：选择您需要的借款金额</li>
          <li>身份认证：填写姓名与身份证号</li>
          <li>证件上传：拍摄身份证正反面</li>
          <li>审核结果：合作机构审核后通知您</li>
        </ol>
        <div className={styles.actions} style={{ padding: 'calc(16 * var(--px)) 0 0' }}>
          <HomeAction />
        </div>
      </section>
      <section className={styles.panel}>
        <p className={styles.note}>
          放款前不收取任何费用 · <Link to="/clarification-announcement">防骗提醒</Link> ·{' '}
          <Link to="/apply_my">我的</Link>
        </p>
      </section>
    </main>
  );
}
