import { api } from '@/lib/api-client';
import type { FormConfig } from '../decide';

/**
 * GET /api/app/userInfo/userFormConfig?adChannelCode= — silent, as every call of the post-login
 * decision: a failure is "no data" for the decision, never a toast.
 */
export function fetchFormConfig(adChannelCode: string): Promise<Partial<FormConfig>> {
  return api.get<Partial<FormConfig>>('/api/app/userInfo/userFormConfig', {
    params: { adChannelCode },
    silent: true,
  });
}
