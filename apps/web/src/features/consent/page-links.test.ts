import { describe, expect, it } from 'vitest';
import { checkInlineUrl } from './allowed-url';
import { isOn, numberOption, readQueryOptions, withQuery } from './query-options';

describe('readQueryOptions', () => {
  it('reads individual parameters and JSON values', () => {
    const o = readQueryOptions('?revisit=1&rqResult=%7B%22id%22%3A1%7D&workCity=深圳市');
    expect(o).toEqual({ revisit: '1', rqResult: { id: 1 }, workCity: '深圳市' });
  });

  it('reads one JSON options parameter; individual parameters win', () => {
    const o = readQueryOptions(`?options=${encodeURIComponent('{"revisit":1,"applyLimit":2}')}&applyLimit=3`);
    expect(o).toEqual({ revisit: 1, applyLimit: '3' });
  });

  it('keeps malformed JSON as text', () => {
    expect(readQueryOptions('?rqResult=%7Boops')).toEqual({ rqResult: '{oops' });
  });

  it('round-trips through withQuery', () => {
    const path = withQuery('/x', { a: 1, b: { c: 2 }, d: '', e: null });
    expect(path).toBe('/x?a=1&b=%7B%22c%22%3A2%7D');
    expect(readQueryOptions(path.slice(2))).toEqual({ a: '1', b: { c: 2 } });
  });

  it('reads flags and numbers', () => {
    expect([isOn('1'), isOn('true'), isOn(1), isOn('0'), isOn(undefined)]).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
    expect(numberOption('2')).toBe(2);
    expect(numberOption('x', 5)).toBe(5);
  });
});

describe('checkInlineUrl', () => {
  const hosts = ['partner.example.com', 'H5.Lender.cn'];

  it('allows https URLs on an allowed host', () => {
    expect(checkInlineUrl('https://partner.example.com/apply?x=1', hosts)).toMatchObject({ ok: true });
    expect(checkInlineUrl('https://h5.lender.cn/', hosts)).toMatchObject({ ok: true, host: 'h5.lender.cn' });
    expect(checkInlineUrl('https://www.h5.lender.cn/', hosts)).toMatchObject({ ok: false });
  });

  it('decodes a doubly encoded target', () => {
    const once = encodeURIComponent('https://partner.example.com/a?b=1');
    expect(checkInlineUrl(once, hosts)).toMatchObject({ ok: true });
  });

  it('refuses other hosts, look-alikes, http, other schemes and credentials', () => {
    expect(checkInlineUrl('https://evil.example.com', hosts)).toMatchObject({
      ok: false,
      reason: 'not-allowed',
    });
    expect(checkInlineUrl('https://partner.example.com.evil.cn', hosts)).toMatchObject({ ok: false });
    expect(checkInlineUrl('https://lender.cn', hosts)).toMatchObject({ ok: false, reason: 'not-allowed' });
    expect(checkInlineUrl('http://partner.example.com', hosts)).toMatchObject({
      ok: false,
      reason: 'insecure',
    });
    expect(checkInlineUrl('javascript:alert(1)', hosts)).toMatchObject({ ok: false, reason: 'invalid' });
    expect(checkInlineUrl('https://u:p@partner.example.com', hosts)).toMatchObject({ ok: false });
    expect(checkInlineUrl('', hosts)).toMatchObject({ ok: false, reason: 'missing' });
    expect(checkInlineUrl('https://partner.example.com', [])).toMatchObject({
      ok: false,
      reason: 'not-allowed',
    });
  });
});
