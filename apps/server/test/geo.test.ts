import { findCity, REGIONS } from '@lm/shared/regions';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config/env.ts';
import { channels, deviceReports } from '../src/db/schema.ts';
import { LOOKUPS_PER_IP_PER_HOUR, REPORTS_PER_IP_PER_HOUR } from '../src/modules/geo/service.ts';
import {
  BaiduGeoProvider,
  BaiduMapError,
  mapIpLocation,
  mapReverseGeocoding,
} from '../src/providers/geo/baidu.ts';
import { isPublicIp } from '../src/providers/geo/ip.ts';
import { LocalGeoProvider } from '../src/providers/geo/local.ts';
import {
  allCities,
  cityCodeFromAdcode,
  distanceKm,
  MAX_CITY_DISTANCE_KM,
  matchCity,
  nearestCity,
} from '../src/providers/geo/lookup.ts';
import { BACKEND, body, createTestApp, loginAs, newIp, type TestContext, testConfig } from './helpers.ts';

const BEIJING = { lat: 39.9087, lng: 116.3975 }; // 天安门
const SHANGHAI = { lat: 31.2304, lng: 121.4737 }; // 人民广场
const SHENZHEN = { lat: 22.5431, lng: 114.0579 }; // 福田
const GUANGZHOU = { lat: 23.1291, lng: 113.2644 };
const PACIFIC = { lat: 25, lng: 140 }; // open sea south of Japan
const NEAR_ANTARCTICA = { lat: -60, lng: 10 };

const local = new LocalGeoProvider();

describe('city table and nearest-city search', () => {
  it('measures great-circle distances', () => {
    // Beijing–Shanghai is about 1,068 km as the crow flies.
    expect(distanceKm(BEIJING, SHANGHAI)).toBeGreaterThan(1050);
    expect(distanceKm(BEIJING, SHANGHAI)).toBeLessThan(1085);
    expect(distanceKm(BEIJING, BEIJING)).toBe(0);
    // symmetric, and across the antimeridian the short way round
    expect(distanceKm(SHENZHEN, GUANGZHOU)).toBeCloseTo(distanceKm(GUANGZHOU, SHENZHEN), 9);
    expect(distanceKm({ lat: 0, lng: 179.5 }, { lat: 0, lng: -179.5 })).toBeLessThan(112);
  });

  it('finds the city a point is in', () => {
    expect(nearestCity(BEIJING)?.city).toMatchObject({ code: '110100', name: '北京市', province: '北京市' });
    expect(nearestCity(SHANGHAI)?.city).toMatchObject({ code: '310100', name: '上海市' });
    expect(nearestCity(SHENZHEN)?.city).toMatchObject({ code: '440300', name: '深圳市', province: '广东省' });
    expect(nearestCity(GUANGZHOU)?.city.code).toBe('440100');
    expect(nearestCity({ lat: 30.2595, lng: 120.1305 })?.city.code).toBe('330100'); // 西湖
    expect(nearestCity({ lat: 36.402, lng: 94.9 })?.city.code).toBe('632800'); // 格尔木, far from 德令哈
  });

  it('answers nothing for points far from every city (sea, other continents)', () => {
    expect(nearestCity(PACIFIC)).toBeNull();
    expect(nearestCity(NEAR_ANTARCTICA)).toBeNull();
    expect(nearestCity({ lat: 48.8566, lng: 2.3522 })).toBeNull(); // Paris
    expect(MAX_CITY_DISTANCE_KM).toBeLessThan(400);
  });

  it('uses the codes of the region table, and has a seat for all its cities but the newest', () => {
    // The region table (@vant/area-data) is what channels, products and saved forms hold: a code
    // here that is not in it could never match them. These county-level cities, set up in 2019–2023,
    // have no seat in the table yet; a point there is taken to be in the nearest prefecture.
    const noSeat = ['659006', '659007', '659008', '659009', '659010', '659011', '659012'];
    const codes = new Set(allCities().map((c) => c.code));
    for (const code of codes) expect(findCity(code), code).not.toBeNull();
    for (const c of allCities()) {
      const entry = findCity(c.code);
      expect([entry?.province, entry?.city], c.code).toEqual([c.province, c.name]);
    }
    const missing = REGIONS.flatMap((p) => p.children ?? [])
      .map((c) => c.value)
      .filter((code) => !codes.has(code));
    expect(missing).toEqual(noSeat);
  });

  it('has a well-formed row for every city, each the nearest to its own seat', () => {
    const cities = allCities();
    expect(cities.length).toBeGreaterThan(330);
    expect(new Set(cities.map((c) => c.code)).size).toBe(cities.length);
    for (const c of cities) {
      expect(c.code).toMatch(/^\d{6}$/);
      expect(c.lat).toBeGreaterThan(3);
      expect(c.lat).toBeLessThan(54);
      expect(c.lng).toBeGreaterThan(73);
      expect(c.lng).toBeLessThan(136);
      expect(nearestCity(c)?.city.code).toBe(c.code);
    }
  });

  it('maps administrative codes of any level to our city codes', () => {
    expect(cityCodeFromAdcode('440305')).toBe('440300'); // 南山区
    expect(cityCodeFromAdcode('110108')).toBe('110100'); // 海淀区
    expect(cityCodeFromAdcode('110000')).toBe('110100'); // 北京 at province level
    expect(cityCodeFromAdcode('500229')).toBe('500100'); // 重庆 county
    expect(cityCodeFromAdcode(320102)).toBe('320100');
    expect(cityCodeFromAdcode('429004')).toBe('429004'); // 仙桃, governed by the province
    expect(cityCodeFromAdcode('810001')).toBe('810100'); // 香港 district
    expect(cityCodeFromAdcode('659006')).toBe('659006'); // 铁门关, in the region table, no coordinates
    expect(cityCodeFromAdcode('440000')).toBeNull(); // a province
    expect(cityCodeFromAdcode('0')).toBeNull();
    expect(cityCodeFromAdcode('abc')).toBeNull();
    expect(cityCodeFromAdcode(null)).toBeNull();
  });

  it('matches short, full and former names', () => {
    expect(matchCity('北京', '北京市')?.code).toBe('110100');
    expect(matchCity('北京市', '')?.code).toBe('110100');
    expect(matchCity('江苏', '南京')?.code).toBe('320100');
    expect(matchCity('吉林省', '延边')?.code).toBe('222400');
    expect(matchCity('吉林省', '延边朝鲜族自治州')?.code).toBe('222400');
    expect(matchCity('内蒙古', '锡林郭勒盟')?.code).toBe('152500');
    expect(matchCity('广西', '南宁市')?.code).toBe('450100');
    expect(matchCity('山东省', '莱芜市')?.code).toBe('370100');
    expect(matchCity('广东省', '')).toBeUndefined();
    expect(matchCity('广东省', '南京市')).toBeUndefined();
    expect(matchCity('火星', '南京市')).toBeUndefined();
  });
});

describe('offline IP look-ups (ip2region database shipped in the package)', () => {
  it.each([
    ['114.114.114.114', '江苏省', '南京市', '320100'],
    ['202.96.128.86', '广东省', '广州市', '440100'],
    ['202.96.134.133', '广东省', '深圳市', '440300'],
    ['61.135.169.121', '北京市', '北京市', '110100'],
    ['210.22.70.3', '上海市', '上海市', '310100'],
    ['223.5.5.5', '浙江省', '杭州市', '330100'],
    ['218.4.167.70', '江苏省', '苏州市', '320500'],
    ['::ffff:114.114.114.114', '江苏省', '南京市', '320100'],
    ['240e:47d:c20:1627:30a3:ba0d:a5e6:ec19', '广东省', '广州市', '440100'],
  ])('%s → %s %s', async (ip, province, city, cityCode) => {
    expect(await local.reverse(null, ip)).toEqual({ province, city, cityCode, source: 'ip' });
  });

  it('knows the province when the database has no city', async () => {
    // 2409:8a00::/32 is China Mobile in Beijing at province level only; a municipality has one city.
    expect(await local.reverse(null, '2409:8a00::1')).toEqual({
      province: '北京市',
      city: '北京市',
      cityCode: '110100',
      source: 'ip',
    });
  });

  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '192.168.1.1',
    '172.16.5.4',
    '100.64.0.1',
    '::1',
    'fe80::1',
    'nonsense',
    '',
  ])('private, loopback or malformed %j → unknown', async (ip) => {
    expect(isPublicIp(ip)).toBe(false);
    expect(await local.reverse(null, ip)).toEqual({
      province: '',
      city: '',
      cityCode: null,
      source: 'unknown',
    });
  });

  it('a foreign IP is unknown', async () => {
    expect(isPublicIp('8.8.8.8')).toBe(true);
    expect((await local.reverse(null, '8.8.8.8')).source).toBe('unknown');
  });

  it('coordinates win over the IP; coordinates far from China fall back to the IP', async () => {
    expect(await local.reverse(SHENZHEN, '114.114.114.114')).toEqual({
      province: '广东省',
      city: '深圳市',
      cityCode: '440300',
      source: 'coordinates',
    });
    expect(await local.reverse(PACIFIC, '114.114.114.114')).toMatchObject({
      cityCode: '320100',
      source: 'ip',
    });
    expect((await local.reverse(PACIFIC, '127.0.0.1')).source).toBe('unknown');
  });
});

// Recorded answers of Baidu Map web services (reverse_geocoding/v3 and location/ip).
const BAIDU_REVERSE_SHENZHEN = {
  status: 0,
  result: {
    location: { lng: 113.95412880716, lat: 22.54312377855 },
    formatted_address: '广东省深圳市南山区科苑南路',
    edz: { name: '深圳高新技术产业园区' },
    business: '科技园,深圳湾,后海',
    addressComponent: {
      country: '中国',
      country_code: 0,
      country_code_iso: 'CHN',
      country_code_iso2: 'CN',
      province: '广东省',
      city: '深圳市',
      city_level: 2,
      district: '南山区',
      town: '粤海街道',
      town_code: '440305007',
      distance: '',
      direction: '',
      adcode: '440305',
      street: '科苑南路',
      street_number: '',
    },
    pois: [],
    roads: [],
    poiRegions: [],
    sematic_description: '',
    cityCode: 340,
  },
};
const BAIDU_REVERSE_BEIJING = {
  status: 0,
  result: {
    location: { lng: 116.41, lat: 39.92 },
    formatted_address: '北京市东城区东长安街',
    business: '天安门,前门,王府井',
    addressComponent: {
      country: '中国',
      country_code: 0,
      province: '北京市',
      city: '北京市',
      city_level: 2,
      district: '东城区',
      adcode: '110101',
      street: '东长安街',
      street_number: '',
    },
    cityCode: 131,
  },
};
const BAIDU_REVERSE_SEA = {
  status: 0,
  result: {
    location: { lng: 140.0, lat: 25.0 },
    formatted_address: '',
    business: '',
    addressComponent: {
      country: '',
      country_code: -1,
      country_code_iso: '',
      country_code_iso2: '',
      province: '',
      city: '',
      city_level: 2,
      district: '',
      town: '',
      town_code: '',
      adcode: '0',
      street: '',
      street_number: '',
      direction: '',
      distance: '',
    },
    pois: [],
    roads: [],
    poiRegions: [],
    sematic_description: '',
    cityCode: 0,
  },
};
const BAIDU_IP_CHENGDU = {
  address: 'CN|四川省|成都市|None|None|100|92|64',
  content: {
    address: '四川省成都市',
    address_detail: {
      adcode: '510100',
      city: '成都市',
      city_code: 75,
      district: '',
      province: '四川省',
      street: '',
      street_number: '',
    },
    point: { x: '104.07164', y: '30.66345' },
  },
  status: 0,
};
/** Older answers carry no adcode: the names decide. */
const BAIDU_IP_OLD_FORMAT = {
  address: 'CN|吉林|延边|None|CHINANET|0|0',
  content: {
    address_detail: {
      province: '吉林省',
      city: '延边朝鲜族自治州',
      district: '',
      street: '',
      street_number: '',
      city_code: 315,
    },
    address: '吉林省延边朝鲜族自治州',
    point: { y: '5268011.48', x: '14416953.61' },
  },
  status: 0,
};

describe('Baidu Map adapter', () => {
  it('maps reverse geocoding answers (district adcode → city code)', () => {
    expect(mapReverseGeocoding(BAIDU_REVERSE_SHENZHEN)).toEqual({
      province: '广东省',
      city: '深圳市',
      cityCode: '440300',
      source: 'coordinates',
    });
    expect(mapReverseGeocoding(BAIDU_REVERSE_BEIJING)).toEqual({
      province: '北京市',
      city: '北京市',
      cityCode: '110100',
      source: 'coordinates',
    });
    expect(mapReverseGeocoding(BAIDU_REVERSE_SEA)).toBeNull();
    const abroad = structuredClone(BAIDU_REVERSE_SEA);
    Object.assign(abroad.result.addressComponent, { country: '日本', country_code: 35, adcode: '0' });
    expect(mapReverseGeocoding(abroad)).toBeNull();
  });

  it('maps IP location answers, with or without adcode', () => {
    expect(mapIpLocation(BAIDU_IP_CHENGDU)).toEqual({
      province: '四川省',
      city: '成都市',
      cityCode: '510100',
      source: 'ip',
    });
    expect(mapIpLocation(BAIDU_IP_OLD_FORMAT)).toEqual({
      province: '吉林省',
      city: '延边朝鲜族自治州',
      cityCode: '222400',
      source: 'ip',
    });
    const abroad = { ...BAIDU_IP_CHENGDU, address: 'US|None|None|None|None|0|0' };
    expect(mapIpLocation(abroad).source).toBe('unknown');
  });

  it('turns error statuses and malformed answers into BaiduMapError', () => {
    expect(() => mapReverseGeocoding({ status: 302, message: '天配额超限，限制访问' })).toThrow(
      BaiduMapError,
    );
    expect(() => mapReverseGeocoding({ status: 240, message: 'APP 服务被禁用' })).toThrow(/status 240/);
    expect(() =>
      mapIpLocation({ status: 1, message: 'Internal Service Error:ip[8.8.8.8] loc failed' }),
    ).toThrow(BaiduMapError);
    expect(() => mapIpLocation('<html>')).toThrow(BaiduMapError);
    expect(() => mapReverseGeocoding({ status: 0, result: {} })).toThrow(/malformed/);
  });

  function recorder(answers: Record<string, unknown>) {
    const calls: URL[] = [];
    const fetchFn = (async (input: string | URL | Request) => {
      const url = new URL(String(input));
      calls.push(url);
      const answer = answers[url.pathname];
      if (answer === undefined) throw new TypeError('fetch failed');
      return new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    return { calls, fetchFn };
  }

  const silentLog = pino({ level: 'silent' });

  it('asks reverse geocoding with wgs84ll coordinates, then the IP when the point is not in China', async () => {
    const { calls, fetchFn } = recorder({
      '/reverse_geocoding/v3/': BAIDU_REVERSE_SEA,
      '/location/ip': BAIDU_IP_CHENGDU,
    });
    const baidu = new BaiduGeoProvider({ ak: 'test-ak', fallback: local, log: silentLog, fetch: fetchFn });
    expect(await baidu.reverse(PACIFIC, '::ffff:61.139.2.69')).toMatchObject({
      cityCode: '510100',
      source: 'ip',
    });
    expect(calls).toHaveLength(2);
    const [rev, ip] = calls as [URL, URL];
    expect(rev.origin + rev.pathname).toBe('https://api.map.baidu.com/reverse_geocoding/v3/');
    expect(Object.fromEntries(rev.searchParams)).toEqual({
      ak: 'test-ak',
      output: 'json',
      coordtype: 'wgs84ll',
      location: '25,140',
    });
    expect(Object.fromEntries(ip.searchParams)).toEqual({ ak: 'test-ak', ip: '61.139.2.69', coor: 'bd09ll' });
  });

  it('does not ask Baidu about private IPs', async () => {
    const { calls, fetchFn } = recorder({});
    const baidu = new BaiduGeoProvider({ ak: 'k', fallback: local, log: silentLog, fetch: fetchFn });
    expect((await baidu.reverse(null, '192.168.1.10')).source).toBe('unknown');
    expect(calls).toHaveLength(0);
  });

  it('falls back to the offline provider on a timeout or an error status, without logging the key', async () => {
    const lines: string[] = [];
    const log = pino({ level: 'warn' }, { write: (l: string) => void lines.push(l) });
    /** Why the hanging service's request was given up (the provider's own timeout, not ours). */
    let gaveUp: unknown = null;
    const hanging = ((_input: string | URL | Request, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => {
          gaveUp = init.signal?.reason;
          reject(init.signal?.reason);
        });
      })) as typeof fetch;
    const slow = new BaiduGeoProvider({
      ak: 'secret-ak-123',
      fallback: local,
      log,
      fetch: hanging,
      timeoutMs: 50,
    });
    expect(await slow.reverse(BEIJING, '202.96.128.86')).toEqual({
      province: '北京市',
      city: '北京市',
      cityCode: '110100',
      source: 'coordinates',
    });
    // The answer came because the provider gave up on the hanging service at its timeout.
    expect((gaveUp as Error | null)?.name).toBe('TimeoutError');

    const { fetchFn } = recorder({ '/location/ip': { status: 302, message: '天配额超限，限制访问' } });
    const quota = new BaiduGeoProvider({ ak: 'secret-ak-123', fallback: local, log, fetch: fetchFn });
    expect(await quota.reverse(null, '202.96.128.86')).toMatchObject({ cityCode: '440100', source: 'ip' });

    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/no answer within 50 ms/);
    expect(lines[1]).toMatch(/status 302/);
    expect(lines.join('')).not.toContain('secret-ak-123');
  });
});

describe('configuration', () => {
  it('requires BAIDU_MAP_AK with GEO_PROVIDER=baidu and defaults to the offline provider', async () => {
    expect(() => testConfig({ GEO_PROVIDER: 'baidu' })).toThrow(ConfigError);
    expect(() => testConfig({ GEO_PROVIDER: 'baidu' })).toThrow(
      /BAIDU_MAP_AK: required when GEO_PROVIDER=baidu/,
    );
    expect(() => testConfig({ GEO_PROVIDER: 'amap' })).toThrow(ConfigError);
    expect(testConfig().GEO_PROVIDER).toBe('local');
    expect(testConfig({ GEO_PROVIDER: 'baidu', BAIDU_MAP_AK: 'x' }).BAIDU_MAP_AK).toBe('x');
  });
});

describe(`location API (${BACKEND})`, () => {
  let ctx: TestContext;
  let app: FastifyInstance;
  beforeAll(async () => {
    ctx = await createTestApp();
    app = ctx.app;
    await app.database.db
      .insert(channels)
      .values({
        adChannelCode: 'geo-test',
        name: '定位测试',
        linkType: 2,
        needsLocation: true,
        excludeCityCodes: ['320100', '440100'],
      })
      .onConflictDoNothing();
  });
  afterAll(async () => ctx?.close());

  const excludeCity = (query: string, ip = newIp()) =>
    app.inject({ method: 'GET', url: `/api/third/baiduMap/excludeCity?${query}`, remoteAddress: ip });

  it('uses the offline provider by default', () => {
    expect(app.services.geo.providerName).toBe('local');
  });

  it('answers the city from coordinates and whether the seeded channel excludes it', async () => {
    const res = await excludeCity(
      `location=${BEIJING.lat},${BEIJING.lng}&adChannelCode=demo-location&coordtype=wgs84ll`,
    );
    expect(res.statusCode).toBe(200);
    expect(body(res)).toEqual({
      code: 200,
      msg: 'success',
      data: {
        province: '北京市',
        city: '北京市',
        cityCode: '110100',
        excludeCity: true,
        source: 'coordinates',
      },
    });
    const gz = body(
      await excludeCity(`location=${GUANGZHOU.lat},${GUANGZHOU.lng}&adChannelCode=demo-location`),
    );
    expect(gz.data).toMatchObject({ city: '广州市', cityCode: '440100', excludeCity: false });
    const sh = body(
      await excludeCity(`location=${SHANGHAI.lat}, ${SHANGHAI.lng}&adChannelCode=demo-location`),
    );
    expect(sh.data).toMatchObject({ cityCode: '310100', excludeCity: true });
  });

  it('without coordinates (the H5 retry) answers from the client IP', async () => {
    const res = await excludeCity('adChannelCode=geo-test', '114.114.114.114');
    expect(body(res).data).toEqual({
      province: '江苏省',
      city: '南京市',
      cityCode: '320100',
      excludeCity: true,
      source: 'ip',
    });
    // an empty location counts as none
    const empty = await excludeCity('location=&adChannelCode=demo-location', '202.96.134.133');
    expect(body(empty).data).toMatchObject({ city: '深圳市', excludeCity: true, source: 'ip' });
  });

  it('falls back to the IP for well-formed coordinates outside China', async () => {
    const res = await excludeCity(
      `location=${PACIFIC.lat},${PACIFIC.lng}&adChannelCode=geo-test`,
      '202.96.128.86',
    );
    expect(body(res).data).toMatchObject({
      city: '广州市',
      cityCode: '440100',
      excludeCity: true,
      source: 'ip',
    });
  });

  it('without a channel nothing is excluded; an unknown place is never excluded', async () => {
    const res = await excludeCity(`location=${BEIJING.lat},${BEIJING.lng}`);
    expect(body(res).data).toMatchObject({ cityCode: '110100', excludeCity: false });
    const unknown = await excludeCity('adChannelCode=demo-location', '127.0.0.1');
    expect(body(unknown).data).toEqual({
      province: '',
      city: '',
      cityCode: null,
      excludeCity: false,
      source: 'unknown',
    });
  });

  it('an unknown channel is 404 渠道不存在', async () => {
    const res = await excludeCity(`location=${BEIJING.lat},${BEIJING.lng}&adChannelCode=no-such-channel`);
    expect(res.statusCode).toBe(404);
    expect(body(res)).toEqual({ code: 404, msg: '渠道不存在', data: null });
  });

  it.each([
    ['location=999,999', /纬度应在 -90 到 90 之间/],
    ['location=39.9,200', /经度应在 -180 到 180 之间/],
    ['location=abc', /位置 location 格式应为/],
    ['location=39.9', /位置 location 格式应为/],
    ['location=39.9,116.4,1', /位置 location 格式应为/],
    [`location=${BEIJING.lat},${BEIJING.lng}&coordtype=bd09`, /坐标类型 coordtype 只支持 wgs84ll/],
    ['adChannelCode=%3Cscript%3E', /渠道码只能包含/],
  ])('rejects %s', async (query, msg) => {
    const res = await excludeCity(query);
    expect(res.statusCode).toBe(400);
    const b = body<{ fields: { field: string }[] }>(res);
    expect(b.code).toBe(400);
    expect(b.msg).toMatch(msg);
  });

  it(`limits look-ups to ${LOOKUPS_PER_IP_PER_HOUR} an hour per IP`, async () => {
    const ip = newIp();
    for (let i = 0; i < LOOKUPS_PER_IP_PER_HOUR; i++) {
      expect((await excludeCity('', ip)).statusCode).toBe(200);
    }
    const refused = await excludeCity('', ip);
    expect(refused.statusCode).toBe(429);
    const b = body<{ retryAfter: number }>(refused);
    expect(b.msg).toMatch(/^定位过于频繁/);
    expect(b.data.retryAfter).toBeGreaterThan(3000);
    expect((await excludeCity('', newIp())).statusCode).toBe(200);
  });

  const report = (payload: unknown, headers: Record<string, string> = {}, ip = newIp()) =>
    app.inject({
      method: 'POST',
      url: '/api/reportDevice',
      payload: payload as object,
      headers,
      remoteAddress: ip,
    });

  const reportsFrom = (ip: string) =>
    app.database.db.select().from(deviceReports).where(eq(deviceReports.ip, ip)).orderBy(deviceReports.id);

  it('stores a report without a token', async () => {
    const ip = newIp();
    const res = await report(
      { provinceName: '北京市', cityName: '北京市', adChannelCode: 'demo-location' },
      {},
      ip,
    );
    expect(res.statusCode).toBe(200);
    expect(body(res)).toEqual({ code: 200, msg: 'success', data: { recorded: true } });
    const rows = await reportsFrom(ip);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      userId: null,
      adChannelCode: 'demo-location',
      provinceName: '北京市',
      cityName: '北京市',
      ip,
    });
  });

  it('ties the report to the person with a valid token, and stores it without one for a bad token', async () => {
    const { token, uid } = await loginAs(app);
    const ip = newIp();
    const ok = await report({ provinceName: ' 广东省 ', cityName: '深圳市' }, { accesstoken: token }, ip);
    expect(ok.statusCode).toBe(200);
    const bad = await report(
      { provinceName: '广东省', cityName: '深圳市' },
      { accesstoken: 'not-a-token' },
      ip,
    );
    expect(bad.statusCode).toBe(200);
    const rows = await reportsFrom(ip);
    expect(rows.map((r) => [r.userId, r.provinceName, r.cityName, r.adChannelCode])).toEqual([
      [uid, '广东省', '深圳市', null],
      [null, '广东省', '深圳市', null],
    ]);
  });

  it.each([
    [{ cityName: '北京市' }, 'provinceName'],
    [{ provinceName: '', cityName: '北京市' }, 'provinceName'],
    [{ provinceName: 'Beijing', cityName: '北京市' }, 'provinceName'],
    [{ provinceName: '北京市', cityName: '北'.repeat(33) }, 'cityName'],
    [{ provinceName: '北京市', cityName: '<b>京</b>' }, 'cityName'],
    [{ provinceName: '北京市', cityName: '北京市', adChannelCode: 'a b' }, 'adChannelCode'],
  ])('rejects %j', async (payload, field) => {
    const ip = newIp();
    const res = await report(payload, {}, ip);
    expect(res.statusCode).toBe(400);
    const b = body<{ fields: { field: string }[] }>(res);
    expect(b.data.fields[0]?.field).toBe(field);
    expect(await reportsFrom(ip)).toHaveLength(0);
  });

  it(`limits reports to ${REPORTS_PER_IP_PER_HOUR} an hour per IP`, async () => {
    const ip = newIp();
    for (let i = 0; i < REPORTS_PER_IP_PER_HOUR; i++) {
      expect((await report({ provinceName: '上海市', cityName: '上海市' }, {}, ip)).statusCode).toBe(200);
    }
    const refused = await report({ provinceName: '上海市', cityName: '上海市' }, {}, ip);
    expect(refused.statusCode).toBe(429);
    expect(body(refused).msg).toMatch(/^上报过于频繁/);
    expect(await reportsFrom(ip)).toHaveLength(REPORTS_PER_IP_PER_HOUR);
    expect((await report({ provinceName: '上海市', cityName: '上海市' }, {}, newIp())).statusCode).toBe(200);
  });
});

describe(`Baidu provider wiring (${BACKEND})`, () => {
  it('GEO_PROVIDER=baidu with a key builds the Baidu adapter', async () => {
    const ctx = await createTestApp({ env: { GEO_PROVIDER: 'baidu', BAIDU_MAP_AK: 'test-key' } });
    try {
      expect(ctx.app.services.geo.providerName).toBe('baidu');
    } finally {
      await ctx.close();
    }
  });
});
