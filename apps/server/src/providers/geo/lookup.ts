import { findCity } from '@lm/shared/regions';
import { CITIES, type CityRow, EXTRA_POINTS } from './cities.ts';
import type { Coordinates, GeoResult } from './types.ts';

/** Farther than this from every city seat in the table, a point is not taken to be in China. */
export const MAX_CITY_DISTANCE_KM = 250;

export interface City {
  code: string;
  province: string;
  name: string;
  lat: number;
  lng: number;
}

const toCity = ([code, province, name, lat, lng]: CityRow): City => ({ code, province, name, lat, lng });

const cities: City[] = CITIES.map(toCity);
const byCode = new Map(cities.map((c) => [c.code, c]));
const points: { city: City; lat: number; lng: number }[] = [
  ...cities.map((city) => ({ city, lat: city.lat, lng: city.lng })),
  ...EXTRA_POINTS.map(([code, lat, lng]) => {
    const city = byCode.get(code);
    if (!city) throw new Error(`geo table: extra point for unknown city ${code}`);
    return { city, lat, lng };
  }),
];

const EARTH_RADIUS_KM = 6371.0088;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in kilometres (haversine). */
export function distanceKm(a: Coordinates, b: Coordinates): number {
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The city whose seat (or one of its extra points) is nearest, if within `maxKm`. */
export function nearestCity(
  at: Coordinates,
  maxKm = MAX_CITY_DISTANCE_KM,
): { city: City; distanceKm: number } | null {
  let best: { city: City; distanceKm: number } | null = null;
  for (const p of points) {
    const d = distanceKm(at, p);
    if (!best || d < best.distanceKm) best = { city: p.city, distanceKm: d };
  }
  return best && best.distanceKm <= maxKm ? best : null;
}

export function cityByCode(code: string): City | undefined {
  return byCode.get(code);
}

const MUNICIPALITIES = new Set(['11', '12', '31', '50']);
/** Taiwan, Hong Kong and Macau are one city each (code xx0100, as in the region table). */
const WHOLE_REGIONS = new Set(['71', '81', '82']);

/**
 * Our six-digit city code for an administrative code of any level (district 440305 → 440300,
 * municipality district 110105 or county 500229 → 110100 / 500100, province-governed county-level
 * city 429004 stays itself). Null for a malformed code or a province-level one.
 */
export function cityCodeFromAdcode(adcode: string | number | null | undefined): string | null {
  const code = String(adcode ?? '').trim();
  if (!/^\d{6}$/.test(code)) return null;
  const prov = code.slice(0, 2);
  if (MUNICIPALITIES.has(prov)) return `${prov}0100`;
  if (WHOLE_REGIONS.has(prov)) return `${prov}0100`;
  if (byCode.has(code) || findCity(code)) return code;
  if (code.endsWith('0000')) return null;
  return `${code.slice(0, 4)}00`;
}

const PROVINCE_SUFFIX = /(省|市|壮族自治区|回族自治区|维吾尔自治区|自治区|特别行政区)$/;
const CITY_SUFFIX = /(市|地区|盟|林区|县)$/;

const provinces = [...new Set(cities.map((c) => c.province))];

/** Former names still found in IP databases: merged or renamed cities. */
const FORMER_NAMES: Record<string, string> = {
  莱芜: '370100', // merged into 济南 in 2019
  巢湖: '340100', // county-level city under 合肥 since 2011
  襄樊: '420600', // renamed 襄阳 in 2010
  思茅: '530800', // renamed 普洱 in 2007
};

/** Full province name for 北京 / 北京市 / 广西 / 内蒙古自治区 …; undefined when unknown. */
export function matchProvince(name: string | null | undefined): string | undefined {
  const short = (name ?? '').trim().replace(PROVINCE_SUFFIX, '');
  if (short.length < 2) return undefined;
  return provinces.find((p) => p.startsWith(short));
}

/**
 * The city named `cityName` in `provinceName` (short or full names: 南京 / 南京市, 延边 /
 * 延边朝鲜族自治州). A municipality (or Hong Kong, Macau, Taiwan) answers its one entry.
 */
export function matchCity(
  provinceName: string | null | undefined,
  cityName: string | null | undefined,
): City | undefined {
  const province = matchProvince(provinceName);
  if (!province) return undefined;
  const inProvince = cities.filter((c) => c.province === province);
  if (inProvince.length === 1) return inProvince[0];
  const short = (cityName ?? '').trim().replace(CITY_SUFFIX, '');
  if (short.length < 2) return undefined;
  const former = FORMER_NAMES[short];
  if (former) return byCode.get(former);
  return inProvince.find((c) => c.name.startsWith(short)) ?? inProvince.find((c) => short.startsWith(c.name));
}

/** A result from the table for a city we know. */
export function resultOf(city: City, source: GeoResult['source']): GeoResult {
  return { province: city.province, city: city.name, cityCode: city.code, source };
}

/** Every city of the table (for tests and the console). */
export function allCities(): readonly City[] {
  return cities;
}
