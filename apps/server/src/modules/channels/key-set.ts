import { createHash } from 'node:crypto';

/** A device hash as `blindIndex` writes it: HMAC-SHA256 in base64url (43 characters, 32 bytes). */
const BLIND_INDEX = /^[A-Za-z0-9_-]{43}$/;
const EMPTY = 0;

/**
 * The 128 bits a fingerprint hash is kept as: the first 16 bytes of a device hash (already uniformly
 * random), else of its SHA-256 (any other string, e.g. in tests). Two different hashes share them with a
 * probability of about n² / 2¹²⁹ — for a million keys, 10⁻²⁷.
 */
export function keyBits(fingerprintHash: string): Buffer {
  if (!BLIND_INDEX.test(fingerprintHash))
    return createHash('sha256').update(fingerprintHash).digest().subarray(0, 16);
  // Decoded into one scratch buffer (read at once by the caller): no allocation per click.
  SCRATCH.write(fingerprintHash, 'base64url');
  return SCRATCH_KEY;
}
const SCRATCH = Buffer.alloc(32);
const SCRATCH_KEY = SCRATCH.subarray(0, 16);

/**
 * A set of 128-bit keys in one open-addressing table (four 32-bit words a slot, linear probing, at most
 * half full): 32–64 bytes a key, where a `Set` of the key strings took ~123 (measured: 200 000 keys of
 * day + channel + device hash, 24.6 MB). The all-zero key marks an empty slot, so a key of zeros is kept as
 * 1, 0, 0, 0 (one more key of 2¹²⁸ shares its slot).
 *
 * It grows by doubling, and moves the old table's keys into the new one a few slots at each add rather than
 * all at once: moving them at once stopped the event loop for as long as they took (20 ms at 262 144 keys of
 * one channel, 41 ms at 524 288, 81 ms at a million, 203 ms at two; bench/key-set.mjs), on the click of the
 * visitor who happened to fill the table. While the old table is being emptied, a key is looked for in both.
 */
class Table128 {
  private words: Int32Array;
  private mask: number;
  /** The table being moved into `words`, and the next of its slots to move; null when none is. */
  private old: Int32Array | null = null;
  private oldNext = 0;
  size = 0;

  constructor(capacity = 1024) {
    this.words = new Int32Array(capacity * 4);
    this.mask = capacity - 1;
  }

  /** Adds `k` (16 bytes); false when it was there already. */
  add(k: Buffer): boolean {
    const a = k.readInt32LE(0) || (k.readInt32LE(4) | k.readInt32LE(8) | k.readInt32LE(12) ? 0 : 1);
    const b = k.readInt32LE(4);
    const c = k.readInt32LE(8);
    const d = k.readInt32LE(12);
    if (this.old) this.moveSome();
    if (this.found(a, b, c, d)) return false;
    if ((this.size + 1) * 2 > this.mask + 1) this.grow();
    this.put(this.words, this.mask, a, b, c, d);
    this.size++;
    return true;
  }

  has(k: Buffer): boolean {
    const a = k.readInt32LE(0) || (k.readInt32LE(4) | k.readInt32LE(8) | k.readInt32LE(12) ? 0 : 1);
    return this.found(a, k.readInt32LE(4), k.readInt32LE(8), k.readInt32LE(12));
  }

  /** In the table, or in the one being moved (whose slots stay as they were until it is dropped). */
  private found(a: number, b: number, c: number, d: number): boolean {
    if (Table128.find(this.words, this.mask, a, b, c, d)) return true;
    const old = this.old;
    return old !== null && Table128.find(old, old.length / 4 - 1, a, b, c, d);
  }

  private static find(w: Int32Array, mask: number, a: number, b: number, c: number, d: number): boolean {
    for (let i = (a ^ (d >>> 7)) & mask; ; i = (i + 1) & mask) {
      const o = i * 4;
      const wa = w[o] as number;
      if (wa === a && w[o + 1] === b && w[o + 2] === c && w[o + 3] === d) return true;
      if (wa === EMPTY && w[o + 1] === EMPTY && w[o + 2] === EMPTY && w[o + 3] === EMPTY) return false;
    }
  }

  private put(w: Int32Array, mask: number, a: number, b: number, c: number, d: number): void {
    let i = (a ^ (d >>> 7)) & mask;
    for (;;) {
      const o = i * 4;
      if (w[o] === EMPTY && w[o + 1] === EMPTY && w[o + 2] === EMPTY && w[o + 3] === EMPTY) {
        w[o] = a;
        w[o + 1] = b;
        w[o + 2] = c;
        w[o + 3] = d;
        return;
      }
      i = (i + 1) & mask;
    }
  }

  /**
   * Doubles the table; its keys move over during the next adds. The old table is at most half full when this
   * runs and the new one takes a quarter of its capacity in adds before it is half full itself, by when
   * MOVE_PER_ADD slots an add have long moved every old slot (a move left over is finished here first).
   */
  private grow(): void {
    if (this.old) this.moveSome(Number.POSITIVE_INFINITY);
    this.old = this.words;
    this.oldNext = 0;
    this.words = new Int32Array(this.old.length * 2);
    this.mask = this.words.length / 4 - 1;
  }

  /** Moves up to `slots` of the old table's slots into the new one; drops the old table once all are. */
  private moveSome(slots = MOVE_PER_ADD): void {
    const old = this.old;
    if (!old) return;
    const end = Math.min(old.length, this.oldNext + slots * 4);
    for (let o = this.oldNext; o < end; o += 4) {
      const a = old[o] as number;
      const b = old[o + 1] as number;
      const c = old[o + 2] as number;
      const d = old[o + 3] as number;
      if (a !== EMPTY || b !== EMPTY || c !== EMPTY || d !== EMPTY)
        this.put(this.words, this.mask, a, b, c, d);
    }
    this.oldNext = end;
    if (end === old.length) this.old = null;
  }
}

/** Old slots moved into a grown table at each add (a table of n slots is moved in n / 16 adds). */
const MOVE_PER_ADD = 16;

/**
 * The (channel, fingerprint hash) pairs of one day a click recorder knows are stored (ADR 033): one
 * `Table128` per channel code. Exact for every practical purpose (see `keyBits`).
 */
export class ClickKeySet {
  private readonly byChannel = new Map<string, Table128>();
  private count = 0;

  /** `capacity`: each channel's table's first size in slots (a power of two; tests make it small to grow often). */
  constructor(private readonly capacity = 1024) {}

  get size(): number {
    return this.count;
  }

  /** Adds the pair; false when it was there already. */
  add(adChannelCode: string, fingerprintHash: string): boolean {
    let table = this.byChannel.get(adChannelCode);
    if (!table) {
      table = new Table128(this.capacity);
      this.byChannel.set(adChannelCode, table);
    }
    const added = table.add(keyBits(fingerprintHash));
    if (added) this.count++;
    return added;
  }

  has(adChannelCode: string, fingerprintHash: string): boolean {
    return this.byChannel.get(adChannelCode)?.has(keyBits(fingerprintHash)) ?? false;
  }

  clear(): void {
    this.byChannel.clear();
    this.count = 0;
  }
}
