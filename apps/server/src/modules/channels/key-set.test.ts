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
          const set = new ClickKeySet();
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
