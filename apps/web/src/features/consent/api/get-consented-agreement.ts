import { api } from '@/lib/api-client';
import type { LenderAgreement } from './get-lender-agreement';

/** GET /api/user/info/protocol2/getContent?productId — the text the person consented to (latest consent). */
export function fetchConsentedAgreement(productId: string): Promise<LenderAgreement> {
  return api.get<LenderAgreement>('/api/user/info/protocol2/getContent', {
    params: { productId },
    silent: true,
  });
}
