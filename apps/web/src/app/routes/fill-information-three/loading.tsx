import { ProgressPage } from '@/components/progress-page';
import { useDelayedNavigate } from '@/hooks/use-delayed-navigate';

/** `/fill-information-three/loading`: formprocess3's form entry — prepares the three-step form. */
export function FillInformationThreeLoadingRoute() {
  const go = useDelayedNavigate();
  return (
    <ProgressPage
      title="正在加载申请表"
      subtitle="三步完成申请，预计用时2分钟"
      durationMs={1800}
      steps={['确认账户', '加载申请表']}
      onDone={() => go('/fill-information-three', { replace: true })}
    />
  );
}
