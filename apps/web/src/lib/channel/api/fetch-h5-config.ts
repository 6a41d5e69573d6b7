import type { H5Config } from '@lm/shared/channel';
import { api } from '@/lib/api-client';

/**
 * GET /api/adChannel/h5Config?adChannelCode= (default configuration without a code). The answer of an
 * A/B channel carries the skin of this visitor's arm (chosen by the platform_param fingerprint). With
 * the console's `previewToken`, the unsaved draft it carries.
 */
export function fetchH5Config(adChannelCode: string, previewToken?: string): Promise<H5Config> {
  return api.get<H5Config>('/api/adChannel/h5Config', {
    params: previewToken ? { previewToken } : { adChannelCode },
    silent: true,
    skipAuth: true,
  });
}
