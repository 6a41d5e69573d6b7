import { describe, expect, it } from 'vitest';
import { wellFormed } from './well-formed.ts';

describe('wellFormed', () => {
  it('replaces lone surrogates in strings, keys and nested values; keeps pairs and other values', () => {
    const input = { '-': '\ud800', ok: '好😀', list: ['a\udc00b', 1, null, { deep: '\ud83d' }], n: 3 };
    expect(wellFormed(input)).toEqual({
      '-': '\ufffd',
      ok: '好😀',
      list: ['a\ufffdb', 1, null, { deep: '\ufffd' }],
      n: 3,
    });
    expect(wellFormed({ 'k\ud800': 1 })).toEqual({ 'k\ufffd': 1 });
    expect(wellFormed({ q: 'a\u0000b' })).toEqual({ q: 'a\ufffdb' });
  });
});
