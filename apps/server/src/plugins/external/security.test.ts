import { describe, expect, it } from 'vitest';
import { API_HEADERS, helmetHeaders, isApiCall } from './security.ts';

describe('helmetHeaders (computed once at start-up)', () => {
  it("are helmet's headers for the options, lower-case, the CSP from the directives", () => {
    const headers = helmetHeaders({
      contentSecurityPolicy: {
        directives: { defaultSrc: ["'self'"], scriptSrc: ["'self'", "'sha256-abc='"], objectSrc: ["'none'"] },
      },
      crossOriginEmbedderPolicy: false,
    });
    expect(Object.keys(headers).sort()).toEqual(
      [
        'content-security-policy',
        'cross-origin-opener-policy',
        'cross-origin-resource-policy',
        'origin-agent-cluster',
        'referrer-policy',
        'strict-transport-security',
        'x-content-type-options',
        'x-dns-prefetch-control',
        'x-download-options',
        'x-frame-options',
        'x-permitted-cross-domain-policies',
        'x-xss-protection',
      ].sort(),
    );
    expect(headers['content-security-policy']).toBe(
      "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';img-src 'self' data:;object-src 'none';script-src 'self' 'sha256-abc=';script-src-attr 'none';style-src 'self' https: 'unsafe-inline';upgrade-insecure-requests",
    );
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('throws on options helmet refuses (as it did per request before)', () => {
    expect(() =>
      helmetHeaders({
        contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], scriptSrc: ['self'] } },
      }),
    ).toThrow();
  });
});

describe('isApiCall', () => {
  it('is what /api answers to script, not what it serves as a page or file', () => {
    expect(isApiCall('/api/reportAdChannelClick?adChannelCode=demo')).toBe(true);
    expect(isApiCall('/api/adChannel/h5Config')).toBe(true);
    expect(isApiCall('/api/no/such/call')).toBe(true);
    expect(isApiCall('/api/docs')).toBe(false);
    expect(isApiCall('/api/docs/json')).toBe(false);
    expect(isApiCall('/api/storage/u/1/a.jpg')).toBe(false);
    expect(isApiCall('/api/storage')).toBe(false);
    expect(isApiCall('/')).toBe(false);
    expect(isApiCall('/apix')).toBe(false);
    expect(isApiCall('/admin/api/x')).toBe(false);
  });

  it('gives API answers a set without the document headers', () => {
    expect(Object.keys(API_HEADERS).sort()).toEqual(
      [
        // No cache keeps an API answer (ADR 056); a public route caches its own over it.
        'cache-control',
        'content-security-policy',
        'cross-origin-resource-policy',
        'strict-transport-security',
        'x-content-type-options',
      ].sort(),
    );
  });
});
