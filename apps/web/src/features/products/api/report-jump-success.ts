import { api } from '@/lib/api-client';

/** POST /api/product/apiH5JumpUrlSuccessFlag — the partner page is being opened. Silent, never throws. */
export function reportJumpSuccess(productId: string, entranceType: number): Promise<void> {
  return api
    .post(
      '/api/product/apiH5JumpUrlSuccessFlag',
      { productId, entranceType, appH5: 4 },
      {
        silent: true,
        cancelPrevious: false,
        keepalive: true,
      },
    )
    .then(
      () => undefined,
      () => undefined,
    );
}
