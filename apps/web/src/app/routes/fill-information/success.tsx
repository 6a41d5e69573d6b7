import { SuccessView } from '@/app/flow/success-view';
import { PageHeader } from '@/components/page-header';
import { RetentionPopup } from '@/features/download/components/retention-popup';
import { reportStep } from '@/lib/analytics/reporter';
import styles from '../routes.module.css';

/**
 * `/fill-information/success` with the options of spec §2, and the formprocess3 result page
 * `/fill-information-three/success-page` (the same page).
 */
export function FillInformationSuccessRoute() {
  return (
    <main className={styles.page}>
      <PageHeader title="申请结果" fallback="/borrow-money" />
      <SuccessView />
      <RetentionPopup onShow={() => void reportStep('retention_popup')} />
    </main>
  );
}
