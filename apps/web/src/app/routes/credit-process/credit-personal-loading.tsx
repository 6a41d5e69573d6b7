import { ProgressPage } from '@/app/common/progress-page';
import { useDelayedNavigate } from '@/app/common/use-delayed-navigate';

/** `/credit-process/credit-personal-loading`: after the credit information, on to the application form. */
export function CreditPersonalLoadingRoute() {
  const go = useDelayedNavigate();
  return (
    <ProgressPage
      title="资料提交中"
      subtitle="正在保存并校验您的个人信息"
      steps={['保存资料', '校验信息', '准备借款申请']}
      onDone={() => go('/credit-process/credit-application-form', { replace: true })}
    />
  );
}
