import type { RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ChunkGuardDeps, claimReload, loadChunk, RELOAD_GUARD_KEY } from './chunk-guard';
import { CHUNK_LOAD_TIMEOUT_MS, configureRum, postItems, type VitalItem } from './config';
import { createBatcher, toBatches } from './monitor';
import { routePatternOf } from './route-pattern';

class MemoryStorage {
  map = new Map<string, string>();
  getItem(k: string) {
    return this.map.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.map.set(k, v);
  }
  removeItem(k: string) {
    this.map.delete(k);
  }
}

function deps(storage: ReturnType<ChunkGuardDeps['storage']>, path = '/login') {
  return {
    storage: () => storage,
    path: () => path,
    reload: vi.fn(),
    report: vi.fn(),
    timeoutMs: CHUNK_LOAD_TIMEOUT_MS,
    // The server answers: a chunk that fails is gone (a deploy), not a network failure.
    online: () => true,
    reachable: () => Promise.resolve(true),
    notify: vi.fn(),
    recovered: vi.fn(),
    nextChance: vi.fn(() => Promise.resolve()),
    repair: vi.fn(() => Promise.resolve()),
  };
}

const settled = async <T>(p: Promise<T>) => {
  let state: 'pending' | 'resolved' | 'rejected' = 'pending';
  let value: unknown;
  p.then(
    (v) => {
      state = 'resolved';
      value = v;
    },
    (e) => {
      state = 'rejected';
      value = e;
    },
  );
  for (let i = 0; i < 20; i++) await Promise.resolve();
  return { state, value };
};

describe('chunk-load recovery', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('reports a failed chunk and reloads once, then shows the error (never loops)', async () => {
    const storage = new MemoryStorage();
    const first = deps(storage);
    const failing = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
    // First failure: reported, reloaded, and the promise stays pending until the reload.
    expect((await settled(loadChunk(failing, first))).state).toBe('pending');
    expect(first.report).toHaveBeenCalledTimes(1);
    expect(first.reload).toHaveBeenCalledTimes(1);
    // After the reload the same page fails again: reported, no second reload, a ChunkLoadError.
    const second = deps(storage);
    const again = await settled(loadChunk(failing, second));
    expect(again.state).toBe('rejected');
    expect(again.value).toBeInstanceOf(Error);
    expect((again.value as Error).name).toBe('ChunkLoadError');
    expect(second.report).toHaveBeenCalledTimes(1);
    expect(second.reload).not.toHaveBeenCalled();
  });

  it('clears the mark when the page loads, so a later failure may reload again', async () => {
    const storage = new MemoryStorage();
    storage.setItem(`${RELOAD_GUARD_KEY}/login`, '1');
    const ok = deps(storage);
    expect(await loadChunk(() => Promise.resolve({ page: 1 }), ok)).toEqual({ page: 1 });
    expect(ok.report).not.toHaveBeenCalled();
    expect(storage.getItem(`${RELOAD_GUARD_KEY}/login`)).toBeNull();
    const later = deps(storage);
    await settled(loadChunk(() => Promise.reject(new Error('x')), later));
    expect(later.reload).toHaveBeenCalledTimes(1);
  });

  it('marks per page: another page that fails still gets its one reload', () => {
    const storage = new MemoryStorage();
    expect(claimReload(() => storage, '/login')).toBe(true);
    expect(claimReload(() => storage, '/login')).toBe(false);
    expect(claimReload(() => storage, '/fill-information')).toBe(true);
  });

  it('never reloads without session storage (it could not stop a loop)', async () => {
    const d = deps(null);
    const r = await settled(loadChunk(() => Promise.reject(new Error('x')), d));
    expect(r.state).toBe('rejected');
    expect(d.reload).not.toHaveBeenCalled();
    expect(d.report).toHaveBeenCalledTimes(1);
    const throwing = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {},
      removeItem: () => {},
    };
    expect(claimReload(() => throwing, '/')).toBe(false);
    expect(
      claimReload(() => {
        throw new Error('SecurityError');
      }, '/'),
    ).toBe(false);
  });

  it('treats a chunk still loading after 120 s as failed (spec §9)', async () => {
    const storage = new MemoryStorage();
    const d = deps(storage, '/');
    const p = loadChunk(() => new Promise(() => {}), d);
    await vi.advanceTimersByTimeAsync(CHUNK_LOAD_TIMEOUT_MS - 1);
    expect(d.report).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(d.report).toHaveBeenCalledTimes(1);
    expect(d.reload).toHaveBeenCalledTimes(1);
    expect((await settled(p)).state).toBe('pending');
  });
});

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
