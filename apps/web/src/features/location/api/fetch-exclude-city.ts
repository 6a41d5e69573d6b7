import { api } from '@/lib/api-client';
import type { ExcludeCityAnswer, ExcludeCityParams } from '../locate';

/** GET /api/third/baiduMap/excludeCity (silent: a failure falls back or counts as "no location"). */
export function fetchExcludeCity(params: ExcludeCityParams): Promise<ExcludeCityAnswer> {
  return api.get<ExcludeCityAnswer>('/api/third/baiduMap/excludeCity', {
    params: { ...params },
    silent: true,
    cancelPrevious: false,
  });
}
