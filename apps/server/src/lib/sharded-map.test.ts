import { describe, expect, it } from 'vitest';
import { seededRandom as random } from './seeded-random.ts';
import { ShardedMap } from './sharded-map.ts';

describe('ShardedMap (ADR 048)', () => {
  it('answers as one Map would through any mix of sets, deletes and clears', () => {
    for (const bits of [0, 1, 6]) {
      const next = random(bits + 7);
      const sharded = new ShardedMap<number>(bits);
      const plain = new Map<string, number>();
      for (let step = 0; step < 20_000; step++) {
        const key = `click:ip:10.0.${Math.floor(next() * 40)}.${Math.floor(next() * 50)}`;
        const r = next();
        if (r < 0.55) {
          expect(sharded.set(key, step)).toBe(sharded);
          plain.set(key, step);
        } else if (r < 0.9) expect(sharded.delete(key)).toBe(plain.delete(key));
        else if (r < 0.9995) expect(sharded.get(key)).toBe(plain.get(key));
        else {
          sharded.clear();
          plain.clear();
        }
        expect(sharded.has(key)).toBe(plain.has(key));
      }
      expect(sharded.size).toBe(plain.size);
      expect(new Map(sharded)).toEqual(plain);
    }
  });

  it('spreads the addresses of one network over its shards, which can be walked one at a time', () => {
    const m = new ShardedMap<number>(6);
    for (let i = 0; i < 65_536; i++) m.set(`click:ip:10.1.${i >> 8}.${i & 255}`, i);
    const sizes = Array.from({ length: m.shardCount }, (_, s) => [...m.shardEntries(s)].length);
    expect(sizes.reduce((a, b) => a + b)).toBe(65_536);
    // 1 024 a shard if even: none holds more than twice its share, none is empty.
    expect(Math.max(...sizes)).toBeLessThan(2048);
    expect(Math.min(...sizes)).toBeGreaterThan(512);
    // An IPv6 address's key, and keys that differ in their first character only, find their own shard.
    m.set('click:ip:2001:db8::1', -1);
    m.set('a', 1);
    m.set('b', 2);
    expect([m.get('click:ip:2001:db8::1'), m.get('a'), m.get('b')]).toEqual([-1, 1, 2]);
  });

  it('lets a walk of a shard delete the entry at hand', () => {
    const m = new ShardedMap<number>(2);
    for (let i = 0; i < 1000; i++) m.set(`k${i}`, i);
    for (let s = 0; s < m.shardCount; s++)
      for (const [k, v] of m.shardEntries(s)) if (v % 2 === 0) m.delete(k);
    expect(m.size).toBe(500);
    expect([...m].every(([, v]) => v % 2 === 1)).toBe(true);
  });

  it('refuses a shard count it cannot make and a shard it does not have', () => {
    expect(() => new ShardedMap(13)).toThrow(RangeError);
    expect(() => new ShardedMap(1.5)).toThrow(RangeError);
    expect(() => new ShardedMap(2).shardEntries(4)).toThrow(RangeError);
  });
});
