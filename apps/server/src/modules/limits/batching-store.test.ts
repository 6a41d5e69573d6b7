import { describe, expect, it } from 'vitest';
import { BatchingCounterStore } from './batching-store.ts';
import type { CounterStore, HitResult } from './limiter.ts';

/** An in-memory store that records its calls. */
function recordingStore() {
  const counts = new Map<string, number>();
  const calls: string[][] = [];
  const resetAt = new Date(Date.now() + 60_000);
  const store: CounterStore = {
    async increment(key) {
      calls.push([key]);
      counts.set(key, (counts.get(key) ?? 0) + 1);
      return { count: counts.get(key)!, resetAt };
    },
    async incrementMany(hits) {
      const keys = hits.map((h) => h.key);
      if (new Set(keys).size !== keys.length) throw new Error('incrementMany takes each key once');
      calls.push(keys);
      return hits.map((h): HitResult => {
        counts.set(h.key, (counts.get(h.key) ?? 0) + 1);
        return { count: counts.get(h.key)!, resetAt };
      });
    },
    async decrement(key) {
      counts.set(key, Math.max(0, (counts.get(key) ?? 0) - 1));
    },
    async get(key) {
      return counts.has(key) ? { count: counts.get(key)!, resetAt } : null;
    },
    async clear(key) {
      counts.delete(key);
    },
  };
  return { store, calls, counts };
}

describe('BatchingCounterStore', () => {
  const exp = new Date(Date.now() + 60_000);

  it('sends the increments of one turn together and gives each hit its own count', async () => {
    const { store, calls } = recordingStore();
    const batching = new BatchingCounterStore(store);
    const keys = ['a', 'b', 'a', 'c', 'a', 'b'];
    const hits = await Promise.all(keys.map((k) => batching.increment(k, exp)));
    // The same counts as one increment after another.
    expect(hits.map((h) => h.count)).toEqual([1, 1, 2, 1, 3, 2]);
    // Round by round: each key once per incrementMany (a lone key: increment).
    expect(calls).toEqual([['a', 'b', 'c'], ['a', 'b'], ['a']]);
  });

  it('splits a long queue into batches of at most maxBatch, the later ones queued behind', async () => {
    const { store, calls, counts } = recordingStore();
    const batching = new BatchingCounterStore(store, 10, 1);
    const hits = await Promise.all(Array.from({ length: 35 }, (_, i) => batching.increment(`k${i}`, exp)));
    expect(hits.every((h) => h.count === 1)).toBe(true);
    expect(calls.map((c) => c.length)).toEqual([10, 10, 10, 5]);
    expect(counts.size).toBe(35);
  });

  it('fails every hit of a failed round, and the next batch goes on', async () => {
    const { store } = recordingStore();
    let fail = true;
    const flaky: CounterStore = {
      ...store,
      async incrementMany(hits) {
        if (fail) throw new Error('down');
        return store.incrementMany!(hits);
      },
    };
    const batching = new BatchingCounterStore(flaky);
    const first = await Promise.allSettled(['x', 'y'].map((k) => batching.increment(k, exp)));
    expect(first.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    const second = await Promise.all(['x', 'y'].map((k) => batching.increment(k, exp)));
    expect(second.map((h) => h.count)).toEqual([1, 1]);
  });
});
