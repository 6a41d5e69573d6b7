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
