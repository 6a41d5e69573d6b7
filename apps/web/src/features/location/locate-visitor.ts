import { fetchExcludeCity } from './api/fetch-exclude-city';
import { getCurrentPosition } from './geolocation';
import { type LocationResult, locate } from './locate';

/** The visitor's location for `adChannelCode` (browser geolocation, IP fallback); null when unknown. */
export function locateVisitor(adChannelCode: string): Promise<LocationResult | null> {
  return locate(adChannelCode, {
    getPosition: () => getCurrentPosition(),
    excludeCity: fetchExcludeCity,
    log: (message, detail) => console.warn(`[location] ${message}`, detail ?? ''),
  });
}
