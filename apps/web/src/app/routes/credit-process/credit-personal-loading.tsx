import { useEffect, useRef } from 'react';
import { RequireLogin } from '@/app/flow/require-login';
import { decideCreditFlow, followDecision } from '@/app/sign-in/post-login';
import { ProgressPage } from '@/components/progress-page';
import type { NavigateDecision } from '@/features/flow/decide';

function CreditPersonalLoading() {
  const decision = useRef<Promise<NavigateDecision> | null>(null);
  const alive = useRef(true);
  const cancel = useRef<(() => void) | null>(null);
  useEffect(() => {
    alive.current = true;
    // Decided while the ring turns (it never rejects: a failure ends at the flow's form).
    decision.current ??= decideCreditFlow();
    return () => {
      alive.current = false;
      cancel.current?.();
    };
  }, []);

  const onDone = () => {
    void (decision.current ?? decideCreditFlow()).then((d) => {
      if (alive.current) cancel.current = followDecision({ ...d, replace: true });
    });
  };

  return (
    <ProgressPage
      title="资料提交中"
      subtitle="正在保存并校验您的个人信息"
      steps={['保存资料', '校验信息', '准备借款申请']}
      onDone={onDone}
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
