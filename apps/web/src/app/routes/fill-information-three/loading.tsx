import { useEffect } from 'react';
import { ProgressPage } from '@/components/progress-page';
import { useDelayedNavigate } from '@/hooks/use-delayed-navigate';

/**
 * `/fill-information-three/loading`: formprocess3's form entry. Nothing to load here: on to the
 * three-step form after the navigation delay (spec §9), no fixed minimum (issue 44.13).
 */
export function FillInformationThreeLoadingRoute() {
  const go = useDelayedNavigate();
  useEffect(() => {
    go('/fill-information-three', { replace: true });
  }, [go]);
  return (
    <ProgressPage
      title="正在加载申请表"
      subtitle="三步完成申请，预计用时2分钟"
      steps={['确认账户', '加载申请表']}
      done
    />
  );
}
