import { useState } from 'react';
import { useNavigate } from 'react-router';
import { RequireLogin } from '@/app/flow/require-login';
import { PageHeader } from '@/components/page-header';
import { AccountCancelled } from '@/features/account/components/account-cancelled';
import { CancelAccountForm } from '@/features/account/components/cancel-account-form';
import styles from '../routes.module.css';

/**
 * `/my/cancel-account`: the cancellation form, then its confirmation (issue 44.17), which stays until
 * 返回首页 — outside RequireLogin, since the session is gone by then.
 */
export function CancelAccountRoute() {
  const navigate = useNavigate();
  const [done, setDone] = useState<{ lenderCount: number | null } | null>(null);
  if (done) {
    return (
      <main className={styles.page}>
        <PageHeader title="注销账户" backTo="/" />
        <AccountCancelled lenderCount={done.lenderCount} onHome={() => navigate('/', { replace: true })} />
      </main>
    );
  }
  return (
    <RequireLogin>
      <main className={styles.page}>
        <PageHeader title="注销账户" fallback="/my" />
        <CancelAccountForm onCancelled={setDone} />
      </main>
    </RequireLogin>
  );
}
