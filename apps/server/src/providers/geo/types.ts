/** A point in WGS-84 degrees, as a phone's geolocation gives it. */
export interface Coordinates {
  lat: number;
  lng: number;
}

/** What answered: the coordinates, the client IP, or nothing usable. */
export type GeoSource = 'coordinates' | 'ip' | 'unknown';

export interface GeoResult {
  /** Full province name (北京市, 广东省, 内蒙古自治区 …); '' when unknown. */
  province: string;
  /** Full prefecture-level city name (北京市, 深圳市, 延边朝鲜族自治州 …); '' when unknown. */
  city: string;
  /** Six-digit city code (440300), as in channels' excludeCityCodes; null when the city is unknown. */
  cityCode: string | null;
  source: GeoSource;
}

export const UNKNOWN_PLACE: GeoResult = Object.freeze({
  province: '',
  city: '',
  cityCode: null,
  source: 'unknown',
}) as GeoResult;

/**
 * Reverse geolocation: coordinates to a city when given and usable (inside China), otherwise the
 * client IP to a city. Never throws for an unknown place: it answers `source: 'unknown'`.
 */
export interface GeoProvider {
  readonly name: string;
  reverse(coords: Coordinates | null, ip: string): Promise<GeoResult>;
}
