import { Button } from 'antd-mobile';
import { useNavigate, useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { ResultView } from '@/components/result-view';
import { useReportStep } from '@/features/analytics/use-report-step';
import styles from './apply.module.css';
import { ApplySteps } from './apply-steps';

const STATES = {
  auditing: {
    status: 'waiting',
    title: '资料审核中',
    text: '您的资料已提交，审核结果将以短信通知您，请保持手机畅通。',
  },
  passed: {
    status: 'success',
    title: '审核通过',
    text: '合作机构将与您联系确认借款详情，放款前不会收取任何费用。',
  },
  rejected: {
    status: 'error',
    title: '暂未通过审核',
    text: '很遗憾，本次申请暂未通过，您可以30天后再次申请。',
  },
} as const;

/** `/apply_result?status=auditing|passed|rejected`: the apply section's result. */
export function ApplyResultRoute() {
  const navigate = useNavigate();
  const [query] = useSearchParams();
  useReportStep('visit_result');
  const key = (query.get('status') ?? 'auditing') as keyof typeof STATES;
  const state = STATES[key] ?? STATES.auditing;
  return (
    <main className={styles.page}>
      <PageHeader title="审核结果" fallback="/apply_home" />
      <ApplySteps current={3} />
      <ResultView
        status={state.status}
        title={state.title}
        description={state.text}
        actions={
          <>
            <Button block color="primary" shape="rounded" size="large" onClick={() => navigate('/apply_my')}>
              查看我的申请
            </Button>
            <Button block fill="none" onClick={() => navigate('/apply_home', { replace: true })}>
              返回首页
            </Button>
          </>
        }
      />
    </main>
  );
}
