import { lookupIp } from './ip.ts';
import { matchCity, matchProvince, nearestCity, resultOf } from './lookup.ts';
import { type Coordinates, type GeoProvider, type GeoResult, UNKNOWN_PLACE } from './types.ts';

/**
 * Offline provider: coordinates → the nearest city seat within MAX_CITY_DISTANCE_KM (else the IP
 * decides); IP → province and city from the ip2region database, named and coded from our table.
 */
export class LocalGeoProvider implements GeoProvider {
  readonly name = 'local';

  async reverse(coords: Coordinates | null, ip: string): Promise<GeoResult> {
    if (coords) {
      const near = nearestCity(coords);
      if (near) return resultOf(near.city, 'coordinates');
    }
    return ipPlace(ip);
  }
}

/** The offline IP answer (also the Baidu adapter's fallback). */
export function ipPlace(ip: string): GeoResult {
  const place = lookupIp(ip);
  if (!place || place.country !== '中国') return UNKNOWN_PLACE;
  const city = matchCity(place.province, place.city);
  if (city) return resultOf(city, 'ip');
  const province = matchProvince(place.province);
  if (!province) return UNKNOWN_PLACE;
  return { province, city: '', cityCode: null, source: 'ip' };
}
