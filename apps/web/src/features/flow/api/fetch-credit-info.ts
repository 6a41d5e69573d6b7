import type { CreditInfo } from '@lm/shared/credit-info';
import { api } from '@/lib/api-client';

/** GET /api/app/userInfo/baseDetail — silent: a failure is "no data" for the post-login decision. */
export function fetchCreditInfo(): Promise<CreditInfo> {
  return api.get<CreditInfo>('/api/app/userInfo/baseDetail', { silent: true });
}
