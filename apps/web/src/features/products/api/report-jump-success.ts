import { api } from '@/lib/api-client';
import { REPORT_OPTIONS, settled } from '@/lib/report-call';

/** POST /api/product/apiH5JumpUrlSuccessFlag — the partner page is being opened. Silent, never throws. */
export function reportJumpSuccess(productId: string, entranceType: number): Promise<void> {
  return settled(
    api.post('/api/product/apiH5JumpUrlSuccessFlag', { productId, entranceType, appH5: 4 }, REPORT_OPTIONS),
  );
}
