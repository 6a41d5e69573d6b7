import type { FunnelStep } from '@lm/shared/channel';
import { useEffect } from 'react';
import { reportStep } from './reporter';

/** Reports `step` when the component mounts (once per browser session; safe to call from any page). */
export function useReportStep(step: FunnelStep, enabled = true): void {
  useEffect(() => {
    if (enabled) void reportStep(step);
  }, [step, enabled]);
}
