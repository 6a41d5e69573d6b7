import { describe, expect, it } from 'vitest';
import { findCity, isCityCode, REGIONS } from './regions.ts';
import { PROVINCE_PREFIXES } from './validators/id-card.ts';

describe('region table', () => {
  it('has the 34 provincial-level divisions, each with cities under its own prefix', () => {
    expect(REGIONS).toHaveLength(34);
    expect(new Set(REGIONS.map((p) => p.value.slice(0, 2)))).toEqual(PROVINCE_PREFIXES);
    for (const p of REGIONS) {
      expect(p.value).toMatch(/^\d{2}0000$/);
      expect(p.label).not.toBe('');
      expect(p.children?.length).toBeGreaterThan(0);
      for (const c of p.children ?? []) {
        expect(c.value).toMatch(/^\d{6}$/);
        expect(c.value.slice(0, 2)).toBe(p.value.slice(0, 2));
        expect(c.label).not.toBe('');
      }
    }
  });

  it('keeps every city code the product has stored valid (credit info, channel and product regions)', () => {
    // The city codes of the table before it came from @vant/area-data: a release of the package that
    // drops or renumbers one must not reach users whose saved forms, channels or products hold it.
    for (const line of STORED_CITY_CODES.split('\n')) {
      const [prefix = '', rest = ''] = line.split(':');
      for (const tail of rest.split(' ')) {
        const code = prefix + tail;
        expect(isCityCode(code), code).toBe(true);
        expect(findCity(code)?.provinceCode, code).toBe(`${prefix}0000`);
      }
    }
  });

  it('lists province-governed county-level cities as cities and municipalities and SARs as one city', () => {
    const labels = (prefix: string) =>
      REGIONS.find((p) => p.value === `${prefix}0000`)?.children?.map((c) => `${c.value}${c.label}`);
    expect(labels('50')).toEqual(['500100重庆市']);
    expect(labels('81')).toEqual(['810100香港特别行政区']);
    expect(labels('71')).toEqual(['710100台湾省']);
    expect(labels('41')).toContain('419001济源市');
    expect(labels('65')).toContain('659001石河子市');
    const all = REGIONS.flatMap((p) => p.children ?? []);
    expect(all.filter((c) => c.value.endsWith('9000') || /直辖|^县$/.test(c.label))).toEqual([]);
  });

  it('has unique codes', () => {
    const codes = REGIONS.flatMap((p) => [p.value, ...(p.children ?? []).map((c) => c.value)]);
    expect(new Set(codes).size).toBe(codes.length);
  });
});

describe('findCity / isCityCode', () => {
  it('finds a city with its province', () => {
    expect(findCity('440300')).toEqual({
      provinceCode: '440000',
      province: '广东省',
      cityCode: '440300',
      city: '深圳市',
    });
    expect(findCity('810100')?.province).toBe('香港特别行政区');
    expect(isCityCode('710100')).toBe(true);
  });

  it('refuses province codes, unknown and malformed codes', () => {
    for (const code of ['440000', '449900', '44030', '4403000', 'abcdef', '', null, undefined, 440300]) {
      expect(isCityCode(code), String(code)).toBe(false);
    }
    expect(findCity('440000')).toBeNull();
  });
});

/** Province prefix: the last four digits of its city codes, as of the hand-written table (371 cities). */
const STORED_CITY_CODES = `11:0100
12:0100
13:0100 0200 0300 0400 0500 0600 0700 0800 0900 1000 1100
14:0100 0200 0300 0400 0500 0600 0700 0800 0900 1000 1100
15:0100 0200 0300 0400 0500 0600 0700 0800 0900 2200 2500 2900
21:0100 0200 0300 0400 0500 0600 0700 0800 0900 1000 1100 1200 1300 1400
22:0100 0200 0300 0400 0500 0600 0700 0800 2400
23:0100 0200 0300 0400 0500 0600 0700 0800 0900 1000 1100 1200 2700
31:0100
32:0100 0200 0300 0400 0500 0600 0700 0800 0900 1000 1100 1200 1300
33:0100 0200 0300 0400 0500 0600 0700 0800 0900 1000 1100
34:0100 0200 0300 0400 0500 0600 0700 0800 1000 1100 1200 1300 1500 1600 1700 1800
35:0100 0200 0300 0400 0500 0600 0700 0800 0900
36:0100 0200 0300 0400 0500 0600 0700 0800 0900 1000 1100
37:0100 0200 0300 0400 0500 0600 0700 0800 0900 1000 1100 1300 1400 1500 1600 1700
41:0100 0200 0300 0400 0500 0600 0700 0800 0900 1000 1100 1200 1300 1400 1500 1600 1700 9001
42:0100 0200 0300 0500 0600 0700 0800 0900 1000 1100 1200 1300 2800 9004 9005 9006 9021
43:0100 0200 0300 0400 0500 0600 0700 0800 0900 1000 1100 1200 1300 3100
44:0100 0200 0300 0400 0500 0600 0700 0800 0900 1200 1300 1400 1500 1600 1700 1800 1900 2000 5100 5200 5300
45:0100 0200 0300 0400 0500 0600 0700 0800 0900 1000 1100 1200 1300 1400
46:0100 0200 0300 0400 9001 9002 9005 9006 9007 9021 9022 9023 9024 9025 9026 9027 9028 9029 9030
50:0100
51:0100 0300 0400 0500 0600 0700 0800 0900 1000 1100 1300 1400 1500 1600 1700 1800 1900 2000 3200 3300 3400
52:0100 0200 0300 0400 0500 0600 2300 2600 2700
53:0100 0300 0400 0500 0600 0700 0800 0900 2300 2500 2600 2800 2900 3100 3300 3400
54:0100 0200 0300 0400 0500 0600 2500
61:0100 0200 0300 0400 0500 0600 0700 0800 0900 1000
62:0100 0200 0300 0400 0500 0600 0700 0800 0900 1000 1100 1200 2900 3000
63:0100 0200 2200 2300 2500 2600 2700 2800
64:0100 0200 0300 0400 0500
65:0100 0200 0400 0500 2300 2700 2800 2900 3000 3100 3200 4000 4200 4300 9001 9002 9003 9004 9005 9006 9007 9008 9009 9010 9011
71:0100
81:0100
82:0100`;
