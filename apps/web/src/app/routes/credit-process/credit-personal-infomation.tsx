import { CreditInfoForm } from '@/app/common/credit-info-form';
import styles from '@/app/common/forms.module.css';
import { useDelayedNavigate } from '@/app/common/use-delayed-navigate';
import { PageHeader } from '@/components/page-header';

/** `/credit-process/credit-personal-infomation` (spelling kept from the spec): the credit-info wizard. */
export function CreditPersonalInformationRoute() {
  const go = useDelayedNavigate();
  return (
    <main className={styles.page}>
      <PageHeader title="完善个人信息" />
      <CreditInfoForm onSaved={() => go('/credit-process/credit-personal-loading', { replace: true })} />
    </main>
  );
}
