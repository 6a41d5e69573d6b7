import { SPECIAL_ROUTES } from '@lm/shared/channel';
import { useCallback } from 'react';
import { RequireLogin } from '@/app/flow/require-login';
import { PageHeader } from '@/components/page-header';
import { CreditInfoForm } from '@/features/credit-info/components/credit-info-form';
import { delayBefore } from '@/features/flow/waiting-pages';
import { useDelayedNavigate } from '@/hooks/use-delayed-navigate';
import { toast } from '@/lib/toast';
import styles from '@/styles/forms.module.css';

/** How long the "face verification first" message shows before going there. */
const IDENTITY_FIRST_MS = 2000;

/** `/credit-process/credit-personal-infomation` (spelling kept from the spec): the credit-info wizard. */
export function CreditPersonalInformationRoute() {
  const go = useDelayedNavigate();
  const onIdentityNeeded = useCallback(() => {
    toast.show({ content: '请先完成身份认证', duration: IDENTITY_FIRST_MS });
    go(SPECIAL_ROUTES.identityVerification, { replace: true, delayMs: IDENTITY_FIRST_MS });
  }, [go]);
  // Into the waiting page at once: it holds the navigation delay after its work (issue 44.13).
  const onDone = useCallback(() => {
    const loading = '/credit-process/credit-personal-loading';
    go(loading, { replace: true, delayMs: delayBefore(loading) });
  }, [go]);
  return (
    <RequireLogin>
      <main className={styles.page}>
        <PageHeader title="完善个人信息" />
        <CreditInfoForm onDone={onDone} onIdentityNeeded={onIdentityNeeded} />
      </main>
    </RequireLogin>
  );
}
