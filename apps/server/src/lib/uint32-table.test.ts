import { describe, expect, it } from 'vitest';
import { seededRandom as random } from './seeded-random.ts';
import { ipv4Number, ipv4Text, Uint32Table } from './uint32-table.ts';

describe('Uint32Table (ADR 050)', () => {
  it('answers as a Map would through any mix of sets, deletes, sweeps and clears', () => {
    for (const bits of [0, 1, 6]) {
      const next = random(bits + 11);
      const table = new Uint32Table(bits);
      const plain = new Map<number, number>();
      for (let step = 0; step < 40_000; step++) {
        // Few distinct keys, many collisions: deletes shift runs that wrap round a shard's end.
        const key = 1 + Math.floor(next() * 300) * 0x01000193;
        const r = next();
        if (r < 0.5) {
          const value = (Math.floor(next() * 2 ** 32) | 0) as number;
          expect(table.set(key >>> 0, value)).toBe(table);
          plain.set(key >>> 0, value);
        } else if (r < 0.9) expect(table.delete(key >>> 0)).toBe(plain.delete(key >>> 0));
        else if (r < 0.999) expect(table.get(key >>> 0)).toBe(plain.get(key >>> 0));
        else if (r < 0.9997) {
          const shard = Math.floor(next() * table.shardCount);
          const seen: number[] = [];
          table.sweepShard(shard, (k, v) => {
            seen.push(k);
            if (v % 3 === 0) {
              plain.delete(k);
              return false;
            }
            return true;
          });
          expect(new Set(seen).size).toBe(seen.length);
        } else {
          table.clear();
          plain.clear();
        }
        expect(table.has(key >>> 0)).toBe(plain.has(key >>> 0));
        expect(table.size).toBe(plain.size);
      }
      expect(new Map(table.entries())).toEqual(plain);
    }
  });

  it('keeps every key of a full range, then empties and shrinks by sweeps', () => {
    const table = new Uint32Table(6);
    const base = ipv4Number('10.0.0.0');
    for (let i = 1; i <= 200_000; i++) table.set(base + i, i);
    expect(table.size).toBe(200_000);
    for (let i = 1; i <= 200_000; i += 997) expect(table.get(base + i)).toBe(i);
    expect(table.get(base + 200_001)).toBeUndefined();
    for (let s = 0; s < table.shardCount; s++) table.sweepShard(s, (_k, v) => v % 2 === 0);
    expect(table.size).toBe(100_000);
    expect(table.get(base + 3)).toBeUndefined();
    expect(table.get(base + 4)).toBe(4);
    for (let s = 0; s < table.shardCount; s++) table.sweepShard(s, () => false);
    expect(table.size).toBe(0);
    expect([...table.entries()]).toEqual([]);
    table.set(base + 5, -7);
    expect(table.get(base + 5)).toBe(-7);
  });

  it('drain hands over every entry once and empties the table, which takes new entries as before', () => {
    const next = random(29);
    const table = new Uint32Table(3);
    for (let round = 0; round < 30; round++) {
      const plain = new Map<number, number>();
      const n = Math.floor(next() * 5_000);
      for (let i = 0; i < n; i++) {
        const key = 1 + Math.floor(next() * 0xfffffffe);
        const value = Math.floor(next() * 1000) - 500;
        table.set(key, value);
        plain.set(key, value);
      }
      if (round % 3 === 0)
        for (const key of [...plain.keys()].slice(0, 100)) {
          table.delete(key);
          plain.delete(key);
        }
      const drained = new Map<number, number>();
      let calls = 0;
      table.drain((k, v) => {
        calls++;
        drained.set(k, v);
      });
      expect(calls).toBe(plain.size);
      expect(drained).toEqual(plain);
      expect(table.size).toBe(0);
      expect([...table.entries()]).toEqual([]);
      for (const key of [...plain.keys()].slice(0, 50)) expect(table.get(key)).toBeUndefined();
    }
  });

  it('a table drained and refilled at the same size keeps its slots; after a burst it shrinks', () => {
    const table = new Uint32Table(6);
    const base = ipv4Number('100.64.0.0');
    const fill = (from: number, n: number) => {
      for (let i = 0; i < n; i++) table.set(base + from + i, 1);
    };
    fill(1, 20_000);
    const steady = table.slots;
    expect(steady).toBeGreaterThanOrEqual(40_000);
    // Every second's changed keys: about as many again, other addresses each time.
    for (let second = 1; second <= 5; second++) {
      table.drain(() => {});
      expect(table.slots).toBe(steady);
      fill(1 + second * 20_000, 20_000);
      expect(table.slots).toBe(steady);
    }
    // A quiet second after the burst: the next drain gives the memory back.
    table.drain(() => {});
    fill(1, 100);
    table.drain(() => {});
    expect(table.slots).toBeLessThanOrEqual(64 * 32);
    fill(1, 100);
    expect(table.size).toBe(100);
  });

  it('spreads one network over its shards', () => {
    const table = new Uint32Table(6);
    const base = ipv4Number('192.168.0.0');
    for (let i = 1; i <= 65_535; i++) table.set(base + i, 1);
    const sizes = Array.from({ length: table.shardCount }, (_, s) => {
      let n = 0;
      table.sweepShard(s, () => {
        n++;
        return true;
      });
      return n;
    });
    expect(sizes.reduce((a, b) => a + b)).toBe(65_535);
    expect(Math.max(...sizes)).toBeLessThan(2048);
    expect(Math.min(...sizes)).toBeGreaterThan(512);
  });

  it('refuses keys and values it cannot hold', () => {
    const table = new Uint32Table(2);
    expect(() => table.set(0, 1)).toThrow(RangeError);
    expect(() => table.set(2 ** 32, 1)).toThrow(RangeError);
    expect(() => table.set(1.5, 1)).toThrow(RangeError);
    expect(() => table.set(1, 2 ** 31)).toThrow(RangeError);
    expect(() => table.set(1, 0.5)).toThrow(RangeError);
    expect(() => table.sweepShard(4, () => true)).toThrow(RangeError);
    table.set(2 ** 32 - 1, -(2 ** 31));
    expect(table.get(2 ** 32 - 1)).toBe(-(2 ** 31));
  });
});

describe('ipv4Number / ipv4Text', () => {
  it('reads the addresses Node writes and turns them back into the same text', () => {
    for (const ip of ['0.0.0.0', '1.2.3.4', '10.0.0.1', '127.0.0.1', '192.168.100.200', '255.255.255.255']) {
      const n = ipv4Number(ip);
      expect(n).toBeGreaterThanOrEqual(0);
      expect(ipv4Text(n)).toBe(ip);
    }
    expect(ipv4Number('255.255.255.255')).toBe(2 ** 32 - 1);
    expect(ipv4Number('click:ip:10.1.2.3', 9)).toBe(ipv4Number('10.1.2.3'));
  });

  it('answers −1 for every other spelling, so no two texts share a number', () => {
    for (const text of [
      '',
      '1.2.3',
      '1.2.3.4.5',
      '1.2.3.',
      '.1.2.3',
      '1..2.3',
      '01.2.3.4',
      '1.2.3.04',
      '1.2.3.256',
      '1.2.3.1000',
      '::ffff:1.2.3.4',
      '2001:db8::1',
      '1.2.3.4 ',
      '1.2.3.a',
    ])
      expect(ipv4Number(text)).toBe(-1);
  });
});
