/**
 * A map from 32-bit unsigned integers (not 0) to 32-bit signed integers, kept in typed arrays (ADR 050): no object
 * per entry for the garbage collector to copy, promote or mark. Split into `2^bits` shards by a hash of the
 * key, each an open-addressing table with linear probing, so that no table grows in one long copy (ADR 048's
 * reason for `ShardedMap`) and a sweep can walk one shard a turn (`sweepShard`).
 *
 * Memory: 8 bytes a slot, a shard between 1/4 and 1/2 full, so 16–32 bytes an entry outside the JavaScript heap.
 */
export class Uint32Table {
  private readonly keys: Uint32Array[];
  private readonly values: Int32Array[];
  private readonly sizes: Int32Array;
  private readonly shardShift: number;
  private total = 0;

  constructor(bits = 6) {
    if (!Number.isInteger(bits) || bits < 0 || bits > 12) throw new RangeError(`bits ${bits} not in 0–12`);
    const n = 2 ** bits;
    this.keys = Array.from({ length: n }, () => new Uint32Array(MIN_SLOTS));
    this.values = Array.from({ length: n }, () => new Int32Array(MIN_SLOTS));
    this.sizes = new Int32Array(n);
    // The shard is taken from the hash's top bits, the slot from its low bits: the two stay independent.
    this.shardShift = 32 - bits;
  }

  get shardCount(): number {
    return this.keys.length;
  }

  get size(): number {
    return this.total;
  }

  /** Slots allocated in all shards (8 bytes each, outside the JavaScript heap). */
  get slots(): number {
    let n = 0;
    for (const keys of this.keys) n += keys.length;
    return n;
  }

  get(key: number): number | undefined {
    const h = hash(key);
    const shard = this.shardOf(h);
    const keys = this.keys[shard] as Uint32Array;
    const mask = keys.length - 1;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const k = keys[i];
      if (k === key) return (this.values[shard] as Int32Array)[i];
      if (k === 0) return undefined;
    }
  }

  has(key: number): boolean {
    return this.get(key) !== undefined;
  }

  /** Sets `key` (an integer 1 … 2³² − 1) to `value` (an integer −2³¹ … 2³¹ − 1). */
  set(key: number, value: number): this {
    checkKey(key);
    if (!Number.isInteger(value) || value < -0x80000000 || value > 0x7fffffff)
      throw new RangeError(`value ${value} is not a 32-bit integer`);
    const h = hash(key);
    const shard = this.shardOf(h);
    let keys = this.keys[shard] as Uint32Array;
    // At most half full: linear probing's runs stay short.
    if ((this.sizes[shard] as number) + 1 > keys.length >>> 1) {
      this.rebuild(shard, keys.length * 2, null);
      keys = this.keys[shard] as Uint32Array;
    }
    const mask = keys.length - 1;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const k = keys[i];
      if (k === key) {
        (this.values[shard] as Int32Array)[i] = value;
        return this;
      }
      if (k === 0) {
        keys[i] = key;
        (this.values[shard] as Int32Array)[i] = value;
        (this.sizes[shard] as number)++;
        this.total++;
        return this;
      }
    }
  }

  delete(key: number): boolean {
    const h = hash(key);
    const shard = this.shardOf(h);
    const keys = this.keys[shard] as Uint32Array;
    const values = this.values[shard] as Int32Array;
    const mask = keys.length - 1;
    let i = h & mask;
    for (; ; i = (i + 1) & mask) {
      const k = keys[i];
      if (k === key) break;
      if (k === 0) return false;
    }
    // Backward-shift deletion: the entries after it in its run move up where their probe allows, so no
    // tombstone is left and a lookup still stops at the first empty slot.
    let hole = i;
    for (let j = (i + 1) & mask; keys[j] !== 0; j = (j + 1) & mask) {
      const home = hash(keys[j] as number) & mask;
      // The entry at j may fill the hole unless its home lies in (hole, j] cyclically.
      const between = hole <= j ? home > hole && home <= j : home > hole || home <= j;
      if (!between) {
        keys[hole] = keys[j] as number;
        values[hole] = values[j] as number;
        hole = j;
      }
    }
    keys[hole] = 0;
    values[hole] = 0;
    (this.sizes[shard] as number)--;
    this.total--;
    return true;
  }

  clear(): void {
    for (let s = 0; s < this.keys.length; s++) {
      this.keys[s] = new Uint32Array(MIN_SLOTS);
      this.values[s] = new Int32Array(MIN_SLOTS);
      this.sizes[s] = 0;
    }
    this.total = 0;
  }

  /**
   * Calls `each(key, value)` for every entry, shard by shard, and removes them all. A shard keeps its table,
   * zeroed in place, unless the table is more than 4× the size its entries needed: a set drained and filled
   * again at the same rate (the write-behind counters' changed keys, every second) is then not regrown from 16
   * slots, rehashing as it doubles, each second: at ~12 000 changed addresses a second that was ~0.5 MB/s of new
   * buffers outside the heap, external memory, which V8 also counts when it decides to mark (bench/README.md,
   * twenty-fourth session). After a burst it shrinks again at the next drain. `each` must not change the
   * table.
   */
  drain(each: (key: number, value: number) => void): void {
    for (let s = 0; s < this.keys.length; s++) {
      const size = this.sizes[s] as number;
      const keys = this.keys[s] as Uint32Array;
      const values = this.values[s] as Int32Array;
      let needed = MIN_SLOTS;
      while (size > needed >>> 1) needed *= 2;
      const shrink = keys.length > needed * 4;
      if (size === 0 && !shrink) continue;
      for (let i = 0; i < keys.length; i++) if (keys[i] !== 0) each(keys[i] as number, values[i] as number);
      if (shrink) {
        this.keys[s] = new Uint32Array(needed * 2);
        this.values[s] = new Int32Array(needed * 2);
      } else {
        keys.fill(0);
        values.fill(0);
      }
      this.sizes[s] = 0;
    }
    this.total = 0;
  }

  /**
   * Keeps only the entries of shard `shard` for which `keep(key, value)` is true, in a table sized for them
   * (so a shard shrinks again once its entries have gone). `keep` must not change the table.
   */
  sweepShard(shard: number, keep: (key: number, value: number) => boolean): void {
    if (!Number.isInteger(shard) || shard < 0 || shard >= this.keys.length)
      throw new RangeError(`no shard ${shard}`);
    this.rebuild(shard, 0, keep);
  }

  /** Every entry, shard by shard. */
  *entries(): IterableIterator<[number, number]> {
    for (let s = 0; s < this.keys.length; s++) {
      const keys = this.keys[s] as Uint32Array;
      const values = this.values[s] as Int32Array;
      for (let i = 0; i < keys.length; i++) if (keys[i] !== 0) yield [keys[i] as number, values[i] as number];
    }
  }

  private shardOf(h: number): number {
    return this.shardShift === 32 ? 0 : h >>> this.shardShift;
  }

  /** Moves a shard's entries (those `keep` keeps) into a table of `slots` (0: sized for them). */
  private rebuild(
    shard: number,
    slots: number,
    keep: ((key: number, value: number) => boolean) | null,
  ): void {
    const oldKeys = this.keys[shard] as Uint32Array;
    const oldValues = this.values[shard] as Int32Array;
    let kept = 0;
    if (keep !== null) {
      for (let i = 0; i < oldKeys.length; i++)
        if (oldKeys[i] !== 0 && keep(oldKeys[i] as number, oldValues[i] as number)) kept++;
        else oldKeys[i] = 0;
    } else kept = this.sizes[shard] as number;
    let size = slots;
    if (size === 0) {
      size = MIN_SLOTS;
      while (kept > size >>> 2) size *= 2;
    }
    const keys = new Uint32Array(size);
    const values = new Int32Array(size);
    const mask = size - 1;
    for (let i = 0; i < oldKeys.length; i++) {
      const k = oldKeys[i] as number;
      if (k === 0) continue;
      let j = hash(k) & mask;
      while (keys[j] !== 0) j = (j + 1) & mask;
      keys[j] = k;
      values[j] = oldValues[i] as number;
    }
    this.keys[shard] = keys;
    this.values[shard] = values;
    this.total += kept - (this.sizes[shard] as number);
    this.sizes[shard] = kept;
  }
}

const MIN_SLOTS = 16;

function checkKey(key: number): void {
  if (!Number.isInteger(key) || key < 1 || key > 0xffffffff)
    throw new RangeError(`key ${key} not in 1 … 2³² − 1`);
}

/** Murmur3's finalizer: every bit of the key moves both the shard (top bits) and the slot (low bits). */
function hash(key: number): number {
  let h = key >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * The 32-bit number of a dotted IPv4 address written as Node writes one (four decimals 0–255, no leading
 * zeros), read from `text` at `from`; −1 for anything else (IPv6, `::ffff:` forms, other spellings), so that the
 * number turns back into exactly the same text (`ipv4Text`).
 */
export function ipv4Number(text: string, from = 0): number {
  let n = 0;
  let part = 0;
  let digits = 0;
  let dots = 0;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) {
      if (digits === 0 || dots === 3) return -1;
      n = n * 256 + part;
      part = 0;
      digits = 0;
      dots++;
    } else if (c >= 48 && c <= 57) {
      if (digits > 0 && part === 0) return -1;
      part = part * 10 + (c - 48);
      if (part > 255) return -1;
      digits++;
    } else return -1;
  }
  if (dots !== 3 || digits === 0) return -1;
  return n * 256 + part;
}

/** The dotted text of an IPv4 address's 32-bit number. */
export function ipv4Text(n: number): string {
  return `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
}
