import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { isPublicIp, unmapIpv4 } from './ip.ts';
import { cityByCode, cityCodeFromAdcode, matchCity, matchProvince, resultOf } from './lookup.ts';
import { type Coordinates, type GeoProvider, type GeoResult, UNKNOWN_PLACE } from './types.ts';

export const BAIDU_MAP_BASE_URL = 'https://api.map.baidu.com';
export const BAIDU_TIMEOUT_MS = 3000;

/** Baidu answered with a non-zero status, a malformed body, an HTTP error, or not in time. */
export class BaiduMapError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'BaiduMapError';
  }
}

const text = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((v) => (v === null || v === undefined ? '' : String(v).trim()));

const statusOnly = z.object({ status: z.coerce.number(), message: z.string().optional() });

/** reverse_geocoding/v3 (only the fields we read). */
const reverseBody = z.object({
  status: z.literal(0),
  result: z.object({
    addressComponent: z.object({
      country: text,
      country_code: z.coerce.number().optional(),
      province: text,
      city: text,
      adcode: text,
    }),
  }),
});

/** location/ip (only the fields we read; `adcode` is in newer answers only). */
const ipBody = z.object({
  status: z.literal(0),
  address: text,
  content: z.object({
    address_detail: z.object({ province: text, city: text, adcode: text.optional() }),
  }),
});

function checkStatus(json: unknown, api: string): void {
  const head = statusOnly.safeParse(json);
  if (!head.success) throw new BaiduMapError(`${api}: malformed answer`);
  if (head.data.status !== 0) {
    throw new BaiduMapError(
      `${api}: status ${head.data.status} ${head.data.message ?? ''}`.trim(),
      head.data.status,
    );
  }
}

/** Our result for a code and Baidu's names: table names when we know the city, Baidu's otherwise. */
function fromCode(
  code: string | null,
  province: string,
  city: string,
  source: GeoResult['source'],
): GeoResult | null {
  const known = code ? cityByCode(code) : undefined;
  if (known) return resultOf(known, source);
  const byName = matchCity(province, city);
  if (byName) return resultOf(byName, source);
  if (code) return { province, city, cityCode: code, source };
  const prov = matchProvince(province);
  return prov ? { province: prov, city: '', cityCode: null, source } : null;
}

/**
 * Maps a reverse_geocoding/v3 answer. Null when the point is not in mainland China, Hong Kong,
 * Macau or Taiwan (sea, abroad): the caller then asks about the IP.
 */
export function mapReverseGeocoding(json: unknown): GeoResult | null {
  checkStatus(json, 'reverse_geocoding');
  const parsed = reverseBody.safeParse(json);
  if (!parsed.success) throw new BaiduMapError('reverse_geocoding: malformed answer');
  const a = parsed.data.result.addressComponent;
  const inChina = a.country_code === 0 || a.country === '中国';
  if (!inChina) return null;
  return fromCode(cityCodeFromAdcode(a.adcode), a.province, a.city, 'coordinates');
}

/** Maps a location/ip answer; unknown when Baidu places the IP outside China. */
export function mapIpLocation(json: unknown): GeoResult {
  checkStatus(json, 'location/ip');
  const parsed = ipBody.safeParse(json);
  if (!parsed.success) throw new BaiduMapError('location/ip: malformed answer');
  const { address, content } = parsed.data;
  // address is "CN|北京|北京|None|CHINANET|1|None"; other country codes are abroad.
  const country = address.split('|')[0] ?? '';
  if (country && country !== 'CN') return UNKNOWN_PLACE;
  const d = content.address_detail;
  return fromCode(cityCodeFromAdcode(d.adcode), d.province, d.city, 'ip') ?? UNKNOWN_PLACE;
}

export interface BaiduGeoOptions {
  ak: string;
  /** Answers when Baidu fails (the offline provider). */
  fallback: GeoProvider;
  log: FastifyBaseLogger;
  baseUrl?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/**
 * Baidu Map web services: reverse geocoding v3 for coordinates (coordtype wgs84ll) and IP location.
 * When Baidu fails (network, timeout, quota, bad key) the offline provider answers, so the
 * location flow of the H5 never stops on a map outage; the failure is logged (without the key).
 */
export class BaiduGeoProvider implements GeoProvider {
  readonly name = 'baidu';
  private readonly fetch: typeof fetch;
  private readonly baseUrl: string;
  private readonly timeoutMs: number;

  constructor(private readonly o: BaiduGeoOptions) {
    this.fetch = o.fetch ?? globalThis.fetch;
    this.baseUrl = o.baseUrl ?? BAIDU_MAP_BASE_URL;
    this.timeoutMs = o.timeoutMs ?? BAIDU_TIMEOUT_MS;
  }

  async reverse(coords: Coordinates | null, ip: string): Promise<GeoResult> {
    try {
      if (coords) {
        const json = await this.get('/reverse_geocoding/v3/', {
          output: 'json',
          coordtype: 'wgs84ll',
          location: `${coords.lat},${coords.lng}`,
        });
        const found = mapReverseGeocoding(json);
        if (found) return found;
      }
      if (!isPublicIp(ip)) return UNKNOWN_PLACE;
      return mapIpLocation(await this.get('/location/ip', { ip: unmapIpv4(ip), coor: 'bd09ll' }));
    } catch (err) {
      this.o.log.warn(
        { err: { name: (err as Error).name, message: (err as Error).message } },
        'Baidu Map failed; answering from the offline database',
      );
      return this.o.fallback.reverse(coords, ip);
    }
  }

  private async get(path: string, params: Record<string, string>): Promise<unknown> {
    const url = new URL(path, this.baseUrl);
    url.searchParams.set('ak', this.o.ak);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    let res: Response;
    try {
      res = await this.fetch(url, { signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (err) {
      const e = err as Error;
      throw new BaiduMapError(
        e.name === 'TimeoutError'
          ? `${path}: no answer within ${this.timeoutMs} ms`
          : `${path}: ${e.message}`,
      );
    }
    if (!res.ok) throw new BaiduMapError(`${path}: HTTP ${res.status}`);
    try {
      return await res.json();
    } catch {
      throw new BaiduMapError(`${path}: answer is not JSON`);
    }
  }
}
