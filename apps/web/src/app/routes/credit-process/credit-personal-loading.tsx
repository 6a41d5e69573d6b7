import { useEffect, useState } from 'react';
import { RequireLogin } from '@/app/flow/require-login';
import { decideCreditFlow, followDecision } from '@/app/sign-in/post-login';
import { ProgressPage } from '@/components/progress-page';

function CreditPersonalLoading() {
  const [done, setDone] = useState(false);
  useEffect(() => {
    let alive = true;
    let cancel: (() => void) | null = null;
    // The ring turns while the next step is decided (it never rejects: a failure ends at the flow's
    // form); then on after the decision's delay (issue 44.13: no fixed minimum).
    void decideCreditFlow().then((d) => {
      if (!alive) return;
      setDone(true);
      cancel = followDecision({ ...d, replace: true });
    });
    return () => {
      alive = false;
      cancel?.();
    };
  }, []);

  return (
    <ProgressPage
      title="资料提交中"
      subtitle="正在保存并校验您的个人信息"
      steps={['保存资料', '校验信息', '准备借款申请']}
      done={done}
    />
  );
}

/**
 * `/credit-process/credit-personal-loading`: after the credit information, the progress ring while the
 * credit flow's next step is decided (spec §4 "Alternative ordering for the credit flow", with the
 * real userFormConfig and baseDetail): normally the application form (with coverStatus=1 when the
 * earlier application may be covered); the success page when diversion is closed; the re-match for a
 * person who already applied; back to the wizard or to face verification if something is missing.
 */
export function CreditPersonalLoadingRoute() {
  return (
    <RequireLogin>
      <CreditPersonalLoading />
    </RequireLogin>
  );
}
