import { Navigate } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { CancelAccountForm } from '@/features/account/components/cancel-account-form';
import { isLoggedIn } from '@/lib/session';
import styles from '../routes.module.css';

export function CancelAccountRoute() {
  if (!isLoggedIn()) return <Navigate to="/login" replace />;
  return (
    <main className={styles.page}>
      <PageHeader title="注销账户" fallback="/my" />
      <CancelAccountForm />
    </main>
  );
}
