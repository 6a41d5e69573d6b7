import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { PrimaryButton } from '@/components/primary-button';
import { ResultView } from '@/components/result-view';
import { withQuery } from '@/features/consent/query-options';
import { useReportStep } from '@/lib/analytics/use-report-step';
import styles from '../routes.module.css';
import { usePartnerTarget } from './partner-target';

const COUNTDOWN_SECONDS = 3;

/**
 * `/fill-information/success-transfer`: success, then on to the lender's own page (`url`, an allowed
 * partner host) after a short countdown; without one, the result and the way back.
 */
export function SuccessTransferRoute() {
  const navigate = useNavigate();
  const { productName, target } = usePartnerTarget();
  const [left, setLeft] = useState(COUNTDOWN_SECONDS);
  useReportStep('visit_result');
  const inline = target.ok ? withQuery('/inline-page', { url: target.url, productName }) : null;

  useEffect(() => {
    if (!inline) return;
    if (left <= 0) {
      navigate(inline, { replace: true });
      return;
    }
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [left, inline, navigate]);

  return (
    <main className={styles.page}>
      <PageHeader title="申请成功" fallback="/borrow-money" />
      <ResultView
        status="success"
        title="申请已提交"
        description={
          inline
            ? `${left}秒后为您跳转至${productName}，请在机构页面完成后续操作`
            : '您的申请已提交至合作机构，请留意机构的短信或来电'
        }
        actions={
          inline ? (
            <PrimaryButton onClick={() => navigate(inline, { replace: true })}>
              立即前往{productName}
            </PrimaryButton>
          ) : (
            <PrimaryButton onClick={() => navigate('/borrow-money', { replace: true })}>
              查看更多借款产品
            </PrimaryButton>
          )
        }
      />
    </main>
  );
}
