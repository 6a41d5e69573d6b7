import { Navigate } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { AccountOverview } from '@/features/account/components/account-overview';
import { isLoggedIn } from '@/lib/session';
import styles from '../routes.module.css';

export function MyRoute() {
  if (!isLoggedIn()) return <Navigate to="/login" replace />;
  return (
    <main className={styles.page}>
      <PageHeader title="我的" />
      <AccountOverview />
    </main>
  );
}
