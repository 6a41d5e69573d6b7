import { describe, expect, it } from 'vitest';
import { seededRandom as random } from '../../lib/seeded-random.ts';
import { CounterKeySet, CounterMap } from './counter-map.ts';
import type { PackedCounter } from './packed-counter.ts';

const KEYS = [
  ...Array.from({ length: 40 }, (_, i) => `click:ip:10.0.${i % 5}.${i}`),
  'click:ip:0.0.0.0',
  'click:ip:2001:db8::1',
  'click:ip:::ffff:10.0.0.1',
  'click:ip:010.0.0.1',
  'other:10.0.0.1',
];

describe('CounterMap (ADR 050)', () => {
  it('answers as one Map would, whether a counter packed or not and whatever its key', () => {
    for (const bits of [0, 6]) {
      const next = random(bits + 3);
      const map = new CounterMap('click:ip:', bits);
      const plain = new Map<string, PackedCounter>();
      for (let step = 0; step < 30_000; step++) {
        const key = KEYS[Math.floor(next() * KEYS.length)] as string;
        const r = next();
        if (r < 0.5) {
          // A counter that packed (a number) or one that did not (an object), in turn for the same key.
          const value: PackedCounter =
            next() < 0.7 ? Math.floor(next() * 2 ** 30) : { count: step, expiresAt: step * 1000 };
          expect(map.set(key, value)).toBe(map);
          plain.set(key, value);
        } else if (r < 0.85) expect(map.delete(key)).toBe(plain.delete(key));
        else if (r < 0.999) {
          expect(map.get(key)).toEqual(plain.get(key));
        } else {
          const shard = Math.floor(next() * map.shardCount);
          map.sweepShard(shard, (counter, k) => {
            const drop = typeof counter === 'number' ? counter % 2 === 0 : counter.count % 2 === 0;
            if (drop) plain.delete(k());
            return !drop;
          });
        }
        expect(map.has(key)).toBe(plain.has(key));
        expect(map.size).toBe(plain.size);
      }
      expect(new Map(map.entries())).toEqual(plain);
    }
  });

  it('spells a key for a sweep only when asked', () => {
    const map = new CounterMap('click:ip:');
    for (let i = 1; i <= 1000; i++) map.set(`click:ip:10.9.${i >> 8}.${i & 255}`, i);
    map.set('click:ip:2001:db8::7', 5000);
    const spelled: string[] = [];
    for (let s = 0; s < map.shardCount; s++)
      map.sweepShard(s, (counter, key) => {
        if (counter === 7 || counter === 5000) spelled.push(key());
        return counter !== 7;
      });
    expect(spelled.sort()).toEqual(['click:ip:10.9.0.7', 'click:ip:2001:db8::7']);
    expect(map.size).toBe(1000);
    expect(map.get('click:ip:10.9.0.7')).toBeUndefined();
    expect(map.get('click:ip:10.9.3.232')).toBe(1000);
  });
});

describe('CounterKeySet (ADR 052)', () => {
  it('answers as one Set would through adds, deletes, drains and restores, whatever its keys', () => {
    for (const bits of [0, 6]) {
      const next = random(bits + 11);
      const set = new CounterKeySet('click:ip:', bits);
      let plain = new Set<string>();
      for (let step = 0; step < 30_000; step++) {
        const key = KEYS[Math.floor(next() * KEYS.length)] as string;
        const r = next();
        if (r < 0.5) {
          expect(set.add(key)).toBe(set);
          plain.add(key);
        } else if (r < 0.9) expect(set.delete(key)).toBe(plain.delete(key));
        else if (r < 0.99) expect(set.has(key)).toBe(plain.has(key));
        else {
          const drained = set.drain();
          const spelled = Array.from({ length: CounterKeySet.count(drained) }, (_, i) =>
            set.keyAt(drained, i),
          );
          expect(new Set(spelled)).toEqual(plain);
          expect(spelled).toHaveLength(plain.size);
          expect(set.size).toBe(0);
          if (next() < 0.5) {
            // A failed write puts them back, with whatever came meanwhile.
            set.add(key);
            set.restore(drained);
            plain.add(key);
          } else plain = new Set();
        }
        expect(set.size).toBe(plain.size);
      }
    }
  });
});
