import { areaList } from '@vant/area-data';

/**
 * Two-level table of Chinese administrative divisions (spec §3 "Region table"): the 34 provincial-level
 * divisions (incl. Taiwan, Hong Kong and Macau) and their prefecture-level cities, with six-digit
 * GB/T 2260 codes, taken from @vant/area-data (MIT, Vant's province/city/county data, kept up to date
 * with the national code list). Shared by the server (credit-info, channel and product region codes are
 * checked against it) and the H5's city picker, which loads this module on demand (its own chunk: keep
 * it out of modules the H5 imports statically).
 *
 * The package has three levels; the product's choices are kept on top of it (ADR 030):
 * - municipalities (北京, 天津, 上海, 重庆) and Taiwan, Hong Kong and Macau are one city each, code
 *   xx0100 with the province's name (the package splits 重庆 into 市辖区/县 and the others into areas);
 * - county-level divisions governed directly by a province (its 省直辖县 / 自治区直辖县级行政区划
 *   entries, code xx9000, e.g. 济源市 419001, 仙桃市 429004) are cities of their own.
 */
export interface Region {
  value: string;
  label: string;
  children?: Region[];
}

/** Municipalities, Taiwan, Hong Kong and Macau: one city entry, xx0100, named as the province. */
const ONE_CITY = new Set(['11', '12', '31', '50', '71', '81', '82']);

const byPrefix = (list: Record<string, string>, prefix: string): Region[] =>
  Object.entries(list)
    .filter(([code]) => code.startsWith(prefix))
    .map(([value, label]) => ({ value, label }))
    .sort((a, b) => a.value.localeCompare(b.value));

const citiesOf = (province: Region): Region[] => {
  const prefix = province.value.slice(0, 2);
  if (ONE_CITY.has(prefix)) return [{ value: `${prefix}0100`, label: province.label }];
  return byPrefix(areaList.city_list, prefix)
    .flatMap((city) =>
      city.value.endsWith('9000') ? byPrefix(areaList.county_list, city.value.slice(0, 4)) : [city],
    )
    .sort((a, b) => a.value.localeCompare(b.value));
};

export const REGIONS: Region[] = byPrefix(areaList.province_list, '').map((province) => ({
  ...province,
  children: citiesOf(province),
}));

export interface CityEntry {
  provinceCode: string;
  province: string;
  cityCode: string;
  city: string;
}

let cityIndex: Map<string, CityEntry> | null = null;
function cities(): Map<string, CityEntry> {
  if (!cityIndex) {
    cityIndex = new Map();
    for (const p of REGIONS) {
      for (const c of p.children ?? []) {
        cityIndex.set(c.value, {
          provinceCode: p.value,
          province: p.label,
          cityCode: c.value,
          city: c.label,
        });
      }
    }
  }
  return cityIndex;
}

/** The second-level (city) entry of a six-digit code with its province, or null when not in the table. */
export function findCity(code: string | null | undefined): CityEntry | null {
  return (typeof code === 'string' && cities().get(code)) || null;
}

/** True for a six-digit city code of the table (the level the pickers choose). */
export function isCityCode(code: unknown): code is string {
  return typeof code === 'string' && cities().has(code);
}

/** A six-digit region code as its name: a city with its province (北京市 once), a province alone (xx0000). */
export function regionText(code: string): string {
  const province = REGIONS.find((p) => p.value === `${code.slice(0, 2)}0000`);
  if (!province) return code;
  if (code.endsWith('0000')) return province.label;
  const city = province.children?.find((c) => c.value === code);
  if (!city) return code;
  return city.label === province.label ? city.label : `${province.label}${city.label}`;
}
