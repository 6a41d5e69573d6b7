import { api } from '@/lib/api-client';
import { getCurrentPosition } from './geolocation';
import { type ExcludeCityAnswer, type ExcludeCityParams, type LocationResult, locate } from './locate';

/** GET /api/third/baiduMap/excludeCity (silent: a failure falls back or counts as "no location"). */
export function fetchExcludeCity(params: ExcludeCityParams): Promise<ExcludeCityAnswer> {
  return api.get<ExcludeCityAnswer>('/api/third/baiduMap/excludeCity', {
    params: { ...params },
    silent: true,
    cancelPrevious: false,
  });
}

/** POST /api/reportDevice {provinceName, cityName, adChannelCode?} (silent). */
export function reportDevice(body: {
  provinceName: string;
  cityName: string;
  adChannelCode?: string;
}): Promise<unknown> {
  return api.post('/api/reportDevice', { ...body }, { silent: true });
}

/** The visitor's location for `adChannelCode` (browser geolocation, IP fallback); null when unknown. */
export function locateVisitor(adChannelCode: string): Promise<LocationResult | null> {
  return locate(adChannelCode, {
    getPosition: () => getCurrentPosition(),
    excludeCity: fetchExcludeCity,
    log: (message, detail) => console.warn(`[location] ${message}`, detail ?? ''),
  });
}
