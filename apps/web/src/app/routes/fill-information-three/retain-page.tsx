import Button from 'antd-mobile/es/components/button';
import { useNavigate } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { PrimaryButton } from '@/components/primary-button';
import { ResultView } from '@/components/result-view';
import { useReportStep } from '@/lib/analytics/use-report-step';
import styles from '../routes.module.css';

/** `/fill-information-three/retain-page`: the retention page shown when someone leaves mid-application. */
export function RetainPageRoute() {
  const navigate = useNavigate();
  useReportStep('retention_popup');
  return (
    <main className={styles.page}>
      <PageHeader title="温馨提示" fallback="/" />
      <ResultView
        status="waiting"
        title="申请还差一步"
        description="完成剩余资料即可查看可申请的机构，只需再花1分钟。"
        actions={
          <>
            <PrimaryButton onClick={() => navigate('/fill-information-three', { replace: true })}>
              继续申请
            </PrimaryButton>
            <Button block fill="none" onClick={() => navigate('/', { replace: true })}>
              暂时离开
            </Button>
          </>
        }
      >
        <ul className={styles.panelList} style={{ textAlign: 'left', marginTop: 'calc(20 * var(--px))' }}>
          <li>全程线上申请，约2分钟完成</li>
          <li>放款前不收取任何费用</li>
          <li>向任何机构提供信息前都会征得您的同意</li>
        </ul>
      </ResultView>
    </main>
  );
}
