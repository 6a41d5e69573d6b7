import { describe, expect, it } from 'vitest';
import { FallbackCounterStore } from './fallback-store.ts';
import type { CounterStore, HitResult } from './limiter.ts';

/** An in-memory store that can be made unreachable (throws `down`) or broken (throws another error). */
class MemoryStore implements CounterStore {
  counts = new Map<string, number>();
  failure: Error | null = null;
  private check() {
    if (this.failure) throw this.failure;
  }
  async increment(key: string, expiresAt: Date): Promise<HitResult> {
    this.check();
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    return { count, resetAt: expiresAt };
  }
  async decrement(key: string) {
    this.check();
    this.counts.set(key, Math.max(0, (this.counts.get(key) ?? 0) - 1));
  }
  async get(key: string) {
    this.check();
    const count = this.counts.get(key);
    return count === undefined ? null : { count, resetAt: new Date(0) };
  }
  async clear(key: string) {
    this.check();
    this.counts.delete(key);
  }
}

const DOWN = new Error("Stream isn't writeable");
const isDown = (err: unknown) => err === DOWN;
const later = new Date(Date.now() + 60_000);

describe('FallbackCounterStore', () => {
  it('counts in the primary, in the fallback while the primary is down, and in the primary again', async () => {
    const primary = new MemoryStore();
    const fallback = new MemoryStore();
    const switches: boolean[] = [];
    const store = new FallbackCounterStore(primary, fallback, isDown, (using) => switches.push(using));
    await store.increment('k', later);
    primary.failure = DOWN;
    await store.increment('k', later);
    await store.increment('k', later);
    expect(store.usingFallback).toBe(true);
    expect((await store.get('k'))?.count).toBe(2);
    primary.failure = null;
    await store.increment('k', later);
    expect(store.usingFallback).toBe(false);
    expect(primary.counts.get('k')).toBe(2);
    expect(fallback.counts.get('k')).toBe(2);
    // Told once when it switched over and once when it came back.
    expect(switches).toEqual([true, false]);
  });

  it('increments several keys in the fallback even when that store has no batch call', async () => {
    const primary = new MemoryStore();
    primary.failure = DOWN;
    const fallback = new MemoryStore();
    const store = new FallbackCounterStore(primary, fallback, isDown);
    const hits = await store.incrementMany([
      { key: 'a', expiresAt: later },
      { key: 'b', expiresAt: later },
    ]);
    expect(hits.map((h) => h.count)).toEqual([1, 1]);
    expect([...fallback.counts.keys()]).toEqual(['a', 'b']);
  });

  it('passes on errors that do not mean "unreachable" (a bug is not hidden by the fallback)', async () => {
    const primary = new MemoryStore();
    primary.failure = new Error('ERR wrong number of arguments');
    const fallback = new MemoryStore();
    const store = new FallbackCounterStore(primary, fallback, isDown);
    await expect(store.increment('k', later)).rejects.toThrow('wrong number');
    expect(fallback.counts.size).toBe(0);
    expect(store.usingFallback).toBe(false);
  });
});
