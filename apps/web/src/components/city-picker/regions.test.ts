import { PROVINCE_PREFIXES } from '@lm/shared/validators/id-card';
import { describe, expect, it } from 'vitest';
import { REGIONS } from './regions';

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
