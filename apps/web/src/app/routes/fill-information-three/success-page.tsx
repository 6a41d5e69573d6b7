import { SuccessView } from '@/app/flow/success-view';
import { PageHeader } from '@/components/page-header';
import { reportStep } from '@/features/analytics/reporter';
import { RetentionPopup } from '@/features/download/components/retention-popup';
import styles from '../routes.module.css';

/** `/fill-information-three/success-page`: the formprocess3 result page. */
export function FillInformationThreeSuccessRoute() {
  return (
    <main className={styles.page}>
      <PageHeader title="申请结果" fallback="/borrow-money" />
      <SuccessView />
      <RetentionPopup onShow={() => void reportStep('retention_popup')} />
    </main>
  );
}
