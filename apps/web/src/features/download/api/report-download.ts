import type { AppPlatform } from '@lm/shared/schemas/site';
import { api } from '@/lib/api-client';

/** GET /api/reportUserDownloadApp — the person tapped download. Silent, never throws (spec §7). */
export function reportUserDownloadApp(platform: AppPlatform): Promise<void> {
  return api
    .get('/api/reportUserDownloadApp', {
      params: { platform },
      silent: true,
      cancelPrevious: false,
      keepalive: true,
    })
    .then(
      () => undefined,
      () => undefined,
    );
}
