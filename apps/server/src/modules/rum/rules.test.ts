import { describe, expect, it } from 'vitest';
import { ratingOf, resolveVitalsRange, toStored } from './rules.ts';

describe('rum rules', () => {
  it('rates by the Core Web Vitals thresholds, boundaries included in the better band', () => {
    expect(ratingOf('LCP', 2500)).toBe('good');
    expect(ratingOf('LCP', 2500.1)).toBe('needs-improvement');
    expect(ratingOf('LCP', 4000.1)).toBe('poor');
    expect(ratingOf('INP', 200)).toBe('good');
    expect(ratingOf('INP', 501)).toBe('poor');
    expect(ratingOf('CLS', 0.1)).toBe('good');
    expect(ratingOf('CLS', 0.11)).toBe('needs-improvement');
    expect(ratingOf('TTFB', 801)).toBe('needs-improvement');
    expect(ratingOf('CHUNK_ERROR', 1)).toBeNull();
  });

  it('stores the server rating, rounded values and empty tags as null', () => {
    expect(
      toStored({ metric: 'CLS', value: 0.123456, rating: 'good', route: '/', channel: '', skin: undefined }),
    ).toMatchObject({ value: 0.1235, rating: 'needs-improvement', channelCode: null, skin: null });
    expect(toStored({ metric: 'CHUNK_ERROR', value: 0.5, route: '/failure' })).toMatchObject({
      value: 1,
      rating: null,
    });
  });

  it('defaults the range to the last 7 days and refuses reversed or long ranges', () => {
    expect(resolveVitalsRange({}, '2026-11-22')).toEqual({ ok: true, from: '2026-11-16', to: '2026-11-22' });
    expect(resolveVitalsRange({ from: '2026-11-23', to: '2026-11-22' }, '2026-11-22').ok).toBe(false);
    expect(resolveVitalsRange({ from: '2026-01-01', to: '2026-11-22' }, '2026-11-22').ok).toBe(false);
  });
});
