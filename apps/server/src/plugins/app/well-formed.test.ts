import { describe, expect, it } from 'vitest';
import { wellFormed, wellFormedCompiler } from './well-formed.ts';

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

  it('returns a value with nothing to replace as it is, without a copy', () => {
    const query = { adChannelCode: 'demo', fingerprint: 'abc', list: ['好', 2] };
    expect(wellFormed(query)).toBe(query);
    expect(wellFormed('plain')).toBe('plain');
  });
});

describe('wellFormedCompiler', () => {
  it('hands the validator the well-formed value, and answers what the validator answers', () => {
    const seen: unknown[] = [];
    const compile = wellFormedCompiler((() => (data: unknown) => {
      seen.push(data);
      return { value: data };
    }) as never);
    const validate = compile({ schema: {}, method: 'GET', url: '/x', httpPart: 'querystring' }) as (
      d: unknown,
    ) => { value: unknown };
    expect(validate({ q: 'a\ud800' })).toEqual({ value: { q: 'a\ufffd' } });
    expect(seen).toEqual([{ q: 'a\ufffd' }]);
  });
});
