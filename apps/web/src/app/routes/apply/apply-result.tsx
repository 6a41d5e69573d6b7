import { formatShanghai } from '@lm/shared/time';
import Button from 'antd-mobile/es/components/button';
import { lazy, Suspense } from 'react';
import { useNavigate } from 'react-router';
import { RequireLogin } from '@/app/flow/require-login';
import { PageHeader } from '@/components/page-header';
import { PageLoading } from '@/components/page-loading';
import { ResultView } from '@/components/result-view';
import { RetentionPopup } from '@/features/download/components/retention-popup';
import { useTodayApplied } from '@/features/products/api/get-today-applied';
import { loadChunk } from '@/features/rum/chunk-guard';
import { reportStep } from '@/lib/analytics/reporter';
import { useReportStep } from '@/lib/analytics/use-report-step';
import { useH5Config } from '@/lib/channel/store';
import { useStatusResult } from './api/get-status-result';
import styles from './apply.module.css';
import { ApplySteps } from './apply-steps';
import { resultStateOf } from './rules';

const DownloadCard = lazy(() =>
  loadChunk(() => import('@/features/download/components/download-card')).then((m) => ({
    default: m.DownloadCard,
  })),
);

const STATES = {
  draft: {
    status: 'info',
    title: '资料已保存',
    text: '身份信息已保存。完善申请表后，即可为您匹配合适的合作机构。',
  },
  submitted: {
    status: 'waiting',
    title: '资料已提交',
    text: '已为您匹配合作机构，确认授权后机构才会收到您的资料并开始审核。',
  },
  authorized: {
    status: 'success',
    title: '机构审核中',
    text: '您已授权的机构正在审核，结果将以短信通知您；放款前不会收取任何费用。',
  },
} as const;

function TodayApplied() {
  const today = useTodayApplied();
  if (!today.data?.length) return null;
  return (
    <section className={styles.panel}>
      <h2 className={styles.cardTitle}>今日已申请</h2>
      <ul className={styles.applied}>
        {today.data.map((p) => (
          <li key={p.id}>
            <span>
              {p.productName}
              <small>{p.lenderLegalName}</small>
            </span>
            <time dateTime={p.appliedAt}>{formatShanghai(p.appliedAt).slice(11, 16)}</time>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Result() {
  const navigate = useNavigate();
  const config = useH5Config();
  const status = useStatusResult();
  if (status.isLoading) return <PageLoading />;
  if (status.isError || !status.data) {
    return (
      <ResultView
        status="error"
        title="结果加载失败"
        description="请检查网络后重试"
        actions={
          <Button block color="primary" shape="rounded" onClick={() => void status.refetch()}>
            重新加载
          </Button>
        }
      />
    );
  }
  const key = resultStateOf(status.data.submitStatus);
  const state = STATES[key];
  const next =
    key === 'draft'
      ? { label: '完善申请表', to: config.flowRoutes.form }
      : key === 'submitted'
        ? { label: '查看匹配机构', to: config.flowRoutes.rematch }
        : { label: '查看申请记录', to: '/my/application-record' };
  return (
    <>
      <ResultView
        status={state.status}
        title={state.title}
        description={state.text}
        actions={
          <>
            <Button block color="primary" shape="rounded" size="large" onClick={() => navigate(next.to)}>
              {next.label}
            </Button>
            <Button block fill="none" onClick={() => navigate('/apply_my')}>
              我的
            </Button>
          </>
        }
      />
      <TodayApplied />
      <Suspense fallback={null}>
        <div id="download-card">
          <DownloadCard onDownloadTap={() => void reportStep('download_app')} />
        </div>
      </Suspense>
    </>
  );
}

/** `/apply_result`: where the application stands (GET /api/user/info/status/result). */
export function ApplyResultRoute() {
  useReportStep('visit_result');
  return (
    <main className={styles.page}>
      <PageHeader title="审核结果" fallback="/apply_home" />
      <ApplySteps current={3} />
      <RequireLogin>
        <Result />
      </RequireLogin>
      <RetentionPopup
        onShow={() => void reportStep('retention_popup')}
        onDownload={() => document.getElementById('download-card')?.scrollIntoView({ behavior: 'smooth' })}
      />
    </main>
  );
}
