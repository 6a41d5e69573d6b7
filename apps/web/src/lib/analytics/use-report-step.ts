import type { FunnelStep } from '@lm/shared/channel';
import { useEffect } from 'react';
import { reportAuthorizationPage, reportStep } from './reporter';

/** Reports `step` when the component mounts (once per browser session; safe to call from any page). */
export function useReportStep(step: FunnelStep, enabled = true): void {
  useEffect(() => {
    if (enabled) void reportStep(step);
  }, [step, enabled]);
}

/** Reports an authorisation page's steps when it mounts (二次授权 after the retention popup; 二次匹配授权). */
export function useReportAuthorizationPage(secondMatch: boolean): void {
  useEffect(() => reportAuthorizationPage(secondMatch), [secondMatch]);
}
