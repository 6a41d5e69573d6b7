import { api } from '@/lib/api-client';

/** GET /api/reportProductExposure — a product card was seen. Silent, never throws. */
export function reportExposure(productId: string, entranceType: number): Promise<void> {
  return api
    .get('/api/reportProductExposure', {
      params: { productId, entranceType, appH5: 4 },
      silent: true,
      cancelPrevious: false,
      keepalive: true,
    })
    .then(
      () => undefined,
      () => undefined,
    );
}
