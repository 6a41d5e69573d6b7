import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { configureRum, postItems, type VitalItem } from './config';
import { createBatcher, toBatches } from './monitor';
import { routePatternOf } from './route-pattern';

const item = (metric: VitalItem['metric'], value: number): VitalItem => ({
  metric,
  value,
  route: '/',
  channel: 'demo',
  skin: 17,
  navigationType: 'navigate',
  connection: '4g',
});

describe('batching', () => {
  it('keeps the newest value of a measurement and sends on flush', () => {
    const sent: VitalItem[][] = [];
    const b = createBatcher((items) => sent.push(items));
    b.add('cls-1', item('CLS', 0.05));
    b.add('lcp-1', item('LCP', 2100));
    b.add('cls-1', item('CLS', 0.2));
    expect(sent).toHaveLength(0);
    b.flush();
    expect(sent).toEqual([[item('LCP', 2100), item('CLS', 0.2)]]);
    b.flush();
    expect(sent).toHaveLength(1);
  });

  it('sends as soon as a full batch is queued', () => {
    const sent: VitalItem[][] = [];
    const b = createBatcher((items) => sent.push(items), 3);
    for (let i = 0; i < 4; i++) b.add(`id-${i}`, item('INP', i));
    expect(sent.map((s) => s.length)).toEqual([3]);
    expect(b.size()).toBe(1);
  });

  it('flushes in batches of at most 50', () => {
    expect(toBatches(Array.from({ length: 120 }, (_, i) => i)).map((b) => b.length)).toEqual([50, 50, 20]);
    const sent: VitalItem[][] = [];
    const b = createBatcher((items) => sent.push(items), 50);
    for (let i = 0; i < 49; i++) b.add(`id-${i}`, item('LCP', i));
    b.flush();
    expect(sent.map((s) => s.length)).toEqual([49]);
  });

  it('posts a beacon tagged prod / 1.0.3 with the fingerprint, else fetch keepalive', () => {
    configureRum({ enabled: () => true, fingerprint: () => 'fp-1' });
    const beacons: { url: string; body: Record<string, unknown> }[] = [];
    const fetches: RequestInit[] = [];
    let accept = true;
    const beacon = (url: string, body: string) => {
      beacons.push({ url, body: JSON.parse(body) });
      return accept;
    };
    const post = ((_url: string, init: RequestInit) => {
      fetches.push(init);
      return Promise.resolve(new Response(null));
    }) as typeof fetch;
    postItems([item('LCP', 1200)], beacon, post);
    expect(beacons).toEqual([
      {
        url: '/api/report/vitals',
        body: { env: 'prod', version: '1.0.3', fingerprint: 'fp-1', items: [item('LCP', 1200)] },
      },
    ]);
    expect(fetches).toHaveLength(0);
    accept = false;
    postItems([item('CLS', 0.01)], beacon, post);
    expect(fetches).toHaveLength(1);
    expect(fetches[0]).toMatchObject({ method: 'POST', keepalive: true });
    // The console's live preview reports nothing.
    configureRum({ enabled: () => false });
    postItems([item('CLS', 0.01)], beacon, post);
    expect(beacons).toHaveLength(2);
    expect(fetches).toHaveLength(1);
    configureRum({ enabled: () => true, fingerprint: () => '' });
  });
});

describe('route pattern', () => {
  const routes: RouteObject[] = [
    {
      element: null,
      children: [
        { path: '/', element: null },
        { path: '/inline-page', element: null },
        {
          path: '/my',
          children: [
            { index: true, element: null },
            { path: 'personal-data', element: null },
          ],
        },
        { path: '/audit-new', children: [{ path: ':id', element: null }] },
        { path: '*', element: null },
      ],
    },
  ];
  it('names the pattern, never the concrete path', () => {
    expect(routePatternOf(routes, '/')).toBe('/');
    expect(routePatternOf(routes, '/inline-page')).toBe('/inline-page');
    expect(routePatternOf(routes, '/my')).toBe('/my');
    expect(routePatternOf(routes, '/my/personal-data')).toBe('/my/personal-data');
    expect(routePatternOf(routes, '/audit-new/13912345678')).toBe('/audit-new/:id');
    expect(routePatternOf(routes, '/13912345678/x')).toBe('/*');
  });
});
