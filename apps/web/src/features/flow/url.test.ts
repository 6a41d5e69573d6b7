import { describe, expect, it } from 'vitest';
import { buildNavigationUrl, parseJsonQuery } from './url';

describe('buildNavigationUrl', () => {
  it('returns the path alone without query', () => {
    expect(buildNavigationUrl('/fill-information')).toBe('/fill-information');
    expect(buildNavigationUrl('/fill-information', {})).toBe('/fill-information');
  });

  it('writes numbers and booleans as text', () => {
    expect(
      buildNavigationUrl('/fill-information/success', {
        isNotFormReq: true,
        revisit: true,
        rePageShowType: 0,
      }),
    ).toBe('/fill-information/success?isNotFormReq=true&revisit=true&rePageShowType=0');
  });

  it('serialises object values as JSON (options={…})', () => {
    const options = {
      adChannelCode: 'demo',
      applyLimit: 3,
      workCity: '北京市',
      rqResult: { id: 1, productName: '好借' },
    };
    const url = buildNavigationUrl('/fill-information/common-authorize', { options });
    expect(url.startsWith('/fill-information/common-authorize?options=')).toBe(true);
    const read = new URL(url, 'http://h5.test').searchParams.get('options');
    expect(parseJsonQuery(read)).toEqual(options);
  });

  it('leaves out undefined, null and empty values', () => {
    expect(buildNavigationUrl('/x', { a: undefined, b: null, c: '', d: 0, e: false })).toBe('/x?d=0&e=false');
  });

  it('keeps a query and hash already in the path', () => {
    expect(buildNavigationUrl('/x?adChannelCode=demo#top', { coverStatus: 1 })).toBe(
      '/x?adChannelCode=demo&coverStatus=1#top',
    );
  });

  it('encodes special characters', () => {
    expect(buildNavigationUrl('/inline-page', { url: 'https://p.example.com/a?b=1&c=2' })).toBe(
      '/inline-page?url=https%3A%2F%2Fp.example.com%2Fa%3Fb%3D1%26c%3D2',
    );
  });

  it('parseJsonQuery answers null for absent or broken JSON', () => {
    expect(parseJsonQuery(null)).toBeNull();
    expect(parseJsonQuery('{oops')).toBeNull();
  });
});
