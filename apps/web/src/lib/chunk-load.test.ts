import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CHUNK_LOAD_TIMEOUT_MS,
  type ChunkGuardDeps,
  chunkFailureAction,
  claimReload,
  loadChunk,
  MAX_RETRY_DELAY_MS,
  RELOAD_GUARD_KEY,
  retryDelayMs,
  shouldNotify,
} from './chunk-load';

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

/** The browser as the test sets it: `online` and `reachable` may change between tries. */
function browser(state: { online: boolean; reachable: boolean }, storage = new MemoryStorage()) {
  const chances: (() => void)[] = [];
  const deps = {
    storage: () => storage,
    path: () => '/',
    reload: vi.fn(),
    report: vi.fn(),
    timeoutMs: 120_000,
    online: () => state.online,
    reachable: vi.fn(() => Promise.resolve(state.reachable)),
    notify: vi.fn(),
    recovered: vi.fn(),
    // Each wait resolves when the test gives the next chance (back online, a touch).
    nextChance: vi.fn(() => new Promise<void>((resolve) => chances.push(resolve))),
    repair: vi.fn(() => Promise.resolve()),
  } satisfies ChunkGuardDeps;
  const nextChance = async () => {
    await vi.waitFor(() => expect(chances.length).toBeGreaterThan(0));
    chances.shift()?.();
  };
  return { deps, storage, nextChance };
}

const offlineError = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
const cssError = () => Promise.reject(new Error('Unable to preload CSS for /assets/home-dialog-x.css'));

const flush = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

describe('what a failed chunk leads to (docs/decisions/058)', () => {
  it('waits while offline, whatever the server or the reload mark', () => {
    for (const reachable of [true, false])
      for (const reloadAvailable of [true, false])
        expect(chunkFailureAction({ online: false, reachable, reloadAvailable })).toBe('wait');
  });

  it('waits while the server does not answer although the browser says online (a dead network)', () => {
    expect(chunkFailureAction({ online: true, reachable: false, reloadAvailable: true })).toBe('wait');
    expect(chunkFailureAction({ online: true, reachable: false, reloadAvailable: false })).toBe('wait');
  });

  it('reloads once when the server answers (the chunk is gone after a deploy), then fails', () => {
    expect(chunkFailureAction({ online: true, reachable: true, reloadAvailable: true })).toBe('reload');
    expect(chunkFailureAction({ online: true, reachable: true, reloadAvailable: false })).toBe('fail');
  });

  it('tries again after 1 s, 2 s, 4 s … never more than 30 s apart', () => {
    expect([0, 1, 2, 3, 4].map(retryDelayMs)).toEqual([1000, 2000, 4000, 8000, 16000]);
    expect(retryDelayMs(5)).toBe(MAX_RETRY_DELAY_MS);
    expect(retryDelayMs(1000)).toBe(MAX_RETRY_DELAY_MS);
    expect(retryDelayMs(-1)).toBe(1000);
  });

  it('says 网络连接错误 again only once the last toast is gone', () => {
    expect(shouldNotify(10_000, null)).toBe(true);
    expect(shouldNotify(10_000, 9_000)).toBe(false);
    expect(shouldNotify(10_999, 9_000)).toBe(false);
    expect(shouldNotify(11_000, 9_000)).toBe(true);
  });
});

describe('loadChunk without a network', () => {
  it('loads at once with a network: nothing said, nothing taken back', async () => {
    const { deps } = browser({ online: true, reachable: true });
    expect(await loadChunk(() => Promise.resolve('page'), deps)).toBe('page');
    expect(deps.notify).not.toHaveBeenCalled();
    expect(deps.recovered).not.toHaveBeenCalled();
    expect(deps.repair).not.toHaveBeenCalled();
    expect(deps.report).not.toHaveBeenCalled();
  });

  it('keeps the page (pending, no reload, no error), says 网络连接错误, and loads at the next chance', async () => {
    const state = { online: false, reachable: false };
    const { deps, nextChance } = browser(state);
    let tries = 0;
    const load = () => (++tries < 3 ? offlineError() : Promise.resolve({ HomeDialog: 'ok' }));
    let result: unknown = 'pending';
    loadChunk(load, deps).then(
      (m) => {
        result = m;
      },
      (e) => {
        result = e;
      },
    );
    await flush();
    expect(result).toBe('pending');
    expect(deps.notify).toHaveBeenCalledTimes(1);
    expect(deps.report).toHaveBeenCalledTimes(1);
    expect(deps.reachable).not.toHaveBeenCalled(); // offline: no probe
    // A touch while still offline: tried again, failed again, still waiting.
    await nextChance();
    await flush();
    expect(tries).toBe(2);
    expect(result).toBe('pending');
    expect(deps.notify).toHaveBeenCalledTimes(2);
    // Back online: the stylesheets that failed are loaded first, then the chunk.
    state.online = true;
    state.reachable = true;
    await nextChance();
    await vi.waitFor(() => expect(result).toEqual({ HomeDialog: 'ok' }));
    expect(deps.repair).toHaveBeenCalledTimes(2);
    expect(deps.recovered).toHaveBeenCalledTimes(1); // the stale 网络连接错误 is taken back
    expect(deps.reload).not.toHaveBeenCalled();
    expect(deps.report).toHaveBeenCalledTimes(1); // one failed load, reported once
  });

  it('a stylesheet that failed (the browser says online, the server does not answer) waits too', async () => {
    const state = { online: true, reachable: false };
    const { deps, nextChance } = browser(state);
    let tries = 0;
    const load = () => (++tries === 1 ? cssError() : Promise.resolve('page'));
    const p = loadChunk(load, deps);
    await flush();
    expect(deps.reachable).toHaveBeenCalledTimes(1);
    expect(deps.nextChance).toHaveBeenCalledWith(0);
    expect(deps.reload).not.toHaveBeenCalled();
    await nextChance();
    expect(await p).toBe('page');
  });

  it('gives the server its reload once the network is back but the chunk still fails (a deploy)', async () => {
    const state = { online: false, reachable: false };
    const { deps, nextChance, storage } = browser(state);
    let settled = false;
    loadChunk(offlineError, deps).finally(() => {
      settled = true;
    });
    await flush();
    state.online = true;
    state.reachable = true;
    await nextChance();
    await vi.waitFor(() => expect(deps.reload).toHaveBeenCalledTimes(1));
    expect(storage.getItem(`${RELOAD_GUARD_KEY}/`)).toBe('1');
    await flush();
    expect(settled).toBe(false); // pending until the reload
  });

  it('clears the reload mark once a chunk loads after waiting', async () => {
    const state = { online: false, reachable: false };
    const storage = new MemoryStorage();
    storage.setItem(`${RELOAD_GUARD_KEY}/`, '1');
    const { deps, nextChance } = browser(state, storage);
    let tries = 0;
    const p = loadChunk(() => (++tries === 1 ? offlineError() : Promise.resolve(1)), deps);
    await nextChance();
    expect(await p).toBe(1);
    expect(storage.getItem(`${RELOAD_GUARD_KEY}/`)).toBeNull();
  });
});

function deployDeps(storage: ReturnType<ChunkGuardDeps['storage']>, path = '/login') {
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

describe('a chunk gone after a deploy (the server answers): report, reload once, then ChunkLoadError', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('reports a failed chunk and reloads once, then shows the error (never loops)', async () => {
    const storage = new MemoryStorage();
    const first = deployDeps(storage);
    const failing = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
    // First failure: reported, reloaded, and the promise stays pending until the reload.
    expect((await settled(loadChunk(failing, first))).state).toBe('pending');
    expect(first.report).toHaveBeenCalledTimes(1);
    expect(first.reload).toHaveBeenCalledTimes(1);
    // After the reload the same page fails again: reported, no second reload, a ChunkLoadError.
    const second = deployDeps(storage);
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
    const ok = deployDeps(storage);
    expect(await loadChunk(() => Promise.resolve({ page: 1 }), ok)).toEqual({ page: 1 });
    expect(ok.report).not.toHaveBeenCalled();
    expect(storage.getItem(`${RELOAD_GUARD_KEY}/login`)).toBeNull();
    const later = deployDeps(storage);
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
    const d = deployDeps(null);
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
    const d = deployDeps(storage, '/');
    const p = loadChunk(() => new Promise(() => {}), d);
    await vi.advanceTimersByTimeAsync(CHUNK_LOAD_TIMEOUT_MS - 1);
    expect(d.report).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(d.report).toHaveBeenCalledTimes(1);
    expect(d.reload).toHaveBeenCalledTimes(1);
    expect((await settled(p)).state).toBe('pending');
  });
});
