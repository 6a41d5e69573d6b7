import { describe, expect, it } from 'vitest';
import { maskIdCard, maskMiddle, maskName, maskPhone } from './mask.ts';
import { cleanParams, isPresent } from './values.ts';

describe('masking', () => {
  it('replaces the middle with asterisks', () => {
    expect(maskPhone('13812345678')).toBe('138****5678');
    expect(maskIdCard('11010519491231002X')).toBe('110***********002X');
    expect(maskName('张三丰')).toBe('张**');
    expect(maskName('李')).toBe('*');
    expect(maskMiddle('ab', 1, 1)).toBe('a*');
    expect(maskMiddle('', 1, 1)).toBe('');
  });
});

describe('values', () => {
  it('treats empty, null, undefined and NaN as absent', () => {
    for (const v of ['', '  ', null, undefined, Number.NaN]) expect(isPresent(v)).toBe(false);
    for (const v of [0, false, 'a', [], {}]) expect(isPresent(v)).toBe(true);
  });
  it('removes empty values and trims strings', () => {
    expect(cleanParams({ a: ' x ', b: '', c: null, d: 0, e: Number.NaN, f: '  ' })).toEqual({ a: 'x', d: 0 });
  });
});
