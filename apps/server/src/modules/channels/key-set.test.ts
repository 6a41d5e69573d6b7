import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ClickKeySet, keyBits } from './key-set.ts';

const deviceHash = () => randomBytes(32).toString('base64url');

describe('keyBits', () => {
  it('keeps a device hash’s first 16 bytes, and hashes any other string', () => {
    const h = deviceHash();
    expect(Buffer.from(keyBits(h))).toEqual(Buffer.from(h, 'base64url').subarray(0, 16));
    expect(keyBits('h1')).toHaveLength(16);
    expect(keyBits('h1')).not.toEqual(keyBits('h2'));
  });
});

describe('ClickKeySet', () => {
  it('holds pairs per channel: added once, found again, other channels apart', () => {
    const set = new ClickKeySet();
    const h = deviceHash();
    expect(set.add('demo', h)).toBe(true);
    expect(set.add('demo', h)).toBe(false);
    expect(set.has('demo', h)).toBe(true);
    expect(set.has('other', h)).toBe(false);
    expect(set.add('other', h)).toBe(true);
    expect(set.size).toBe(2);
    set.clear();
    expect(set.size).toBe(0);
    expect(set.has('demo', h)).toBe(false);
  });

  it('keeps every key as it grows (200 000 device hashes), and knows none it was not given', () => {
    const set = new ClickKeySet();
    const kept = Array.from({ length: 200_000 }, deviceHash);
    for (const h of kept) expect(set.add('demo', h)).toBe(true);
    expect(set.size).toBe(200_000);
    for (const h of kept) if (!set.has('demo', h)) throw new Error(`lost ${h}`);
    for (let i = 0; i < 20_000; i++) if (set.has('demo', deviceHash())) throw new Error('a key never added');
  });

  it('finds every key while a grown table is still moving its keys over, and takes none twice', () => {
    const set = new ClickKeySet(1024);
    const first = Array.from({ length: 512 }, deviceHash);
    for (const h of first) expect(set.add('demo', h)).toBe(true);
    // The next add doubles the table; every add after it (a re-add too) moves 16 old slots into the new one.
    const later = Array.from({ length: 20 }, deviceHash);
    for (const [i, h] of later.entries()) {
      expect(set.add('demo', h)).toBe(true);
      // Keys not moved yet, keys moved and keys added since: each found, none added again.
      for (const k of [...first, ...later.slice(0, i + 1)]) {
        if (!set.has('demo', k)) throw new Error(`lost ${k} after ${i + 1} adds`);
        if (set.add('demo', k)) throw new Error(`took ${k} twice after ${i + 1} adds`);
      }
    }
    expect(set.size).toBe(532);
  });

  it('keeps a key whose bits are all zero', () => {
    const set = new ClickKeySet();
    const zero = Buffer.alloc(32).toString('base64url');
    expect(set.has('demo', zero)).toBe(false);
    expect(set.add('demo', zero)).toBe(true);
    expect(set.has('demo', zero)).toBe(true);
    expect(set.add('demo', zero)).toBe(false);
  });

  it('answers as a Set of the pairs would, for any sequence of adds and lookups', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.boolean(),
            fc.constantFrom('a', 'b', 'c'),
            fc.oneof(fc.string(), fc.constantFrom('x', 'y')),
          ),
          { maxLength: 400 },
        ),
        (ops) => {
          // Four slots to begin with: the table grows, and moves its keys over, all through the sequence.
          const set = new ClickKeySet(4);
          const model = new Set<string>();
          for (const [add, code, hash] of ops) {
            const key = `${code}\u0000${hash}`;
            if (add) {
              expect(set.add(code, hash)).toBe(!model.has(key));
              model.add(key);
            } else expect(set.has(code, hash)).toBe(model.has(key));
          }
          expect(set.size).toBe(model.size);
        },
      ),
    );
  });
});
