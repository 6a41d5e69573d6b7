import { ProgressPage } from '@/app/common/progress-page';
import { useDelayedNavigate } from '@/app/common/use-delayed-navigate';

/**
 * `/fill-information/waiting-result`: the automatic form (spec §4, Haier). The answers are prepared
 * here and then shown on the form for the person to confirm or change — nothing is submitted unseen.
 */
export function WaitingResultRoute() {
  const go = useDelayedNavigate();
  return (
    <ProgressPage
      title="正在为您准备申请资料"
      subtitle="稍后请您核对资料，确认无误后再提交"
      steps={['读取账户信息', '生成申请资料', '等待您确认']}
      onDone={() => go('/fill-information', { replace: true })}
    />
  );
}
