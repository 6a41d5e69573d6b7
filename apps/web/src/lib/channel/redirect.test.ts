import { describe, expect, it } from 'vitest';
import { resolveRedirect } from './redirect';

const here = { origin: 'https://h5.example.cn', allowedHosts: ['partner.example.com'] };

describe('resolveRedirect (plan target URL, open-redirect defence)', () => {
  it('same-site paths are followed through the router', () => {
    expect(resolveRedirect('/getQuota?adChannelCode=demo', here)).toEqual({
      kind: 'same-origin',
      path: '/getQuota?adChannelCode=demo',
    });
    expect(resolveRedirect('https://h5.example.cn/login#x', here)).toEqual({
      kind: 'same-origin',
      path: '/login#x',
    });
  });

  it('allowed hosts are followed (case-insensitive)', () => {
    expect(resolveRedirect('https://PARTNER.example.com/a?b=1', here)).toEqual({
      kind: 'external',
      url: 'https://partner.example.com/a?b=1',
    });
  });

  it.each([
    ['another host', 'https://evil.example.com/'],
    ['a sub-domain of an allowed host', 'https://x.partner.example.com/'],
    ['a protocol-relative URL', '//evil.example.com/'],
    ['a backslash trick', '/\\evil.example.com'],
    ['javascript:', 'javascript:alert(1)'],
    ['data:', 'data:text/html,hi'],
    ['credentials', 'https://user:pw@partner.example.com/'],
    ['control characters', '/lo\ngin'],
    ['empty', '  '],
    ['null', null],
  ])('ignores %s', (_name, target) => {
    expect(resolveRedirect(target, here)).toBeNull();
  });

  it('another port of this host is not this site', () => {
    expect(resolveRedirect('https://h5.example.cn:8443/', here)).toBeNull();
  });
});
