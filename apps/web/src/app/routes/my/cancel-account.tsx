import { RequireLogin } from '@/app/flow/require-login';
import { PageHeader } from '@/components/page-header';
import { CancelAccountForm } from '@/features/account/components/cancel-account-form';
import styles from '../routes.module.css';

export function CancelAccountRoute() {
  return (
    <RequireLogin>
      <main className={styles.page}>
        <PageHeader title="注销账户" fallback="/my" />
        <CancelAccountForm />
      </main>
    </RequireLogin>
  );
}
