/**
 * Where the visitor is and whether the channel serves that city (spec §4 location flow, §7):
 * geolocation, then `GET /api/third/baiduMap/excludeCity?location=lat,lng&adChannelCode&coordtype=wgs84ll`;
 * without a position, or when that call fails, the same call without coordinates (the server locates
 * the client IP). Null when neither answers.
 */
import type { LatLng } from './geolocation';

/** Answer of the excludeCity call. */
export interface ExcludeCityAnswer {
  province?: string | null;
  city?: string | null;
  /** Six-digit city code, when the server knows it. */
  cityCode?: string | null;
  excludeCity?: boolean | number | null;
}

export interface LocationResult {
  province: string;
  city: string;
  cityCode: string | null;
  excludeCity: boolean;
  /** 'gps' when the coordinates were used, 'ip' for the fallback. */
  source: 'gps' | 'ip';
}

export interface ExcludeCityParams {
  adChannelCode?: string;
  location?: string;
  coordtype?: 'wgs84ll';
}

export interface LocateDeps {
  getPosition(): Promise<LatLng>;
  excludeCity(params: ExcludeCityParams): Promise<ExcludeCityAnswer>;
  log?(message: string, detail?: unknown): void;
}

/** 'lat,lng' with 6 decimals (about 0.1 m). */
export function formatLatLng(position: LatLng): string {
  return `${position.latitude.toFixed(6)},${position.longitude.toFixed(6)}`;
}

function toResult(
  answer: ExcludeCityAnswer | null | undefined,
  source: LocationResult['source'],
): LocationResult | null {
  if (!answer || typeof answer !== 'object') return null;
  return {
    province: answer.province ?? '',
    city: answer.city ?? '',
    cityCode: answer.cityCode ?? null,
    excludeCity: answer.excludeCity === true || answer.excludeCity === 1,
    source,
  };
}

export async function locate(adChannelCode: string, deps: LocateDeps): Promise<LocationResult | null> {
  const channel = adChannelCode ? { adChannelCode } : {};
  try {
    const position = await deps.getPosition();
    try {
      const answer = await deps.excludeCity({
        ...channel,
        location: formatLatLng(position),
        coordtype: 'wgs84ll',
      });
      const result = toResult(answer, 'gps');
      if (result) return result;
    } catch (error) {
      deps.log?.('excludeCity with coordinates failed; retrying by IP', error);
    }
  } catch (error) {
    deps.log?.('geolocation failed; locating by IP', error);
  }
  try {
    return toResult(await deps.excludeCity(channel), 'ip');
  } catch (error) {
    deps.log?.('excludeCity by IP failed', error);
    return null;
  }
}
