import { api } from '@/lib/api-client';
import { REPORT_OPTIONS, settled } from '@/lib/report-call';

/** GET /api/reportProductExposure — a product card was seen. Silent, never throws. */
export function reportExposure(productId: string, entranceType: number): Promise<void> {
  return settled(
    api.get('/api/reportProductExposure', {
      params: { productId, entranceType, appH5: 4 },
      ...REPORT_OPTIONS,
    }),
  );
}
