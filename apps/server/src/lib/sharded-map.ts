/**
 * A Map split into `2^bits` Maps by a hash of the key (ADR 048). A JavaScript Map grows by copying all its
 * entries into a table twice the size, in the call that fills it: at 262 144 string keys that `set` stopped
 * the event loop for ~14 ms, at 524 288 for ~26 ms, at 1 048 576 for ~69 ms (Node 20, this machine). Split, no
 * shard holds more than about 1/2^bits of the keys, so each copy is that much shorter. Its shards can also be
 * walked one at a time (`shardEntries`), for sweeps that should not walk a million keys in one turn.
 */
export class ShardedMap<V> {
  private readonly shards: Map<string, V>[];
  private readonly mask: number;

  constructor(bits = 6) {
    if (!Number.isInteger(bits) || bits < 0 || bits > 12) throw new RangeError(`bits ${bits} not in 0–12`);
    this.shards = Array.from({ length: 2 ** bits }, () => new Map<string, V>());
    this.mask = 2 ** bits - 1;
  }

  /** How many shards there are (`shardEntries` takes 0 … shardCount − 1). */
  get shardCount(): number {
    return this.shards.length;
  }

  private shardOf(key: string): Map<string, V> {
    // FNV-1a over the UTF-16 code units: the addresses of one network differ in their last characters only.
    let h = 0x811c9dc5;
    for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
    return this.shards[(h >>> 0) & this.mask] as Map<string, V>;
  }

  get(key: string): V | undefined {
    return this.shardOf(key).get(key);
  }

  has(key: string): boolean {
    return this.shardOf(key).has(key);
  }

  set(key: string, value: V): this {
    this.shardOf(key).set(key, value);
    return this;
  }

  delete(key: string): boolean {
    return this.shardOf(key).delete(key);
  }

  clear(): void {
    for (const s of this.shards) s.clear();
  }

  get size(): number {
    let n = 0;
    for (const s of this.shards) n += s.size;
    return n;
  }

  /** One shard's entries (deleting the entry at hand while walking them is allowed, as for a Map). */
  shardEntries(shard: number): IterableIterator<[string, V]> {
    const s = this.shards[shard];
    if (!s) throw new RangeError(`no shard ${shard}`);
    return s.entries();
  }

  *[Symbol.iterator](): IterableIterator<[string, V]> {
    for (const s of this.shards) yield* s;
  }
}
