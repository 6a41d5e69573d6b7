import { ShardedMap } from '../../lib/sharded-map.ts';
import { ipv4Number, ipv4Text, Uint32Table } from '../../lib/uint32-table.ts';
import type { PackedCounter } from './packed-counter.ts';

/** The address's number for a `Uint32Table`, or −1 (not `prefix` + a dotted IPv4 address, or 0.0.0.0). */
function addressOf(prefix: string, key: string): number {
  if (!key.startsWith(prefix)) return -1;
  const n = ipv4Number(key, prefix.length);
  return n > 0 ? n : -1;
}

/**
 * The write-behind store's counters by key (ADR 048, ADR 050). A key `prefix` + an IPv4 address whose counter
 * is packed in a small integer — nearly every one in an ad burst — is an entry of a `Uint32Table`: neither the
 * key's text nor its counter is an object on the JavaScript heap. Any other key (IPv6, another spelling of an
 * address) or a counter that did not pack stays in a `ShardedMap` by its text. A key is in one of the two, never
 * both.
 */
export class CounterMap {
  private readonly table: Uint32Table;
  private readonly others: ShardedMap<PackedCounter>;
  /** Keys in `others` that could be in `table` (their counter did not pack): while 0, `table` alone answers. */
  private objectsAtAddresses = 0;

  constructor(
    readonly prefix: string,
    bits = 6,
  ) {
    this.table = new Uint32Table(bits);
    this.others = new ShardedMap(bits);
  }

  private addressOf(key: string): number {
    return addressOf(this.prefix, key);
  }

  get(key: string): PackedCounter | undefined {
    const n = this.addressOf(key);
    if (n > 0) {
      const v = this.table.get(n);
      if (v !== undefined || this.objectsAtAddresses === 0) return v;
    }
    return this.others.get(key);
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  set(key: string, value: PackedCounter): this {
    const n = this.addressOf(key);
    if (n < 0) this.others.set(key, value);
    else if (typeof value === 'number') {
      this.table.set(n, value);
      if (this.objectsAtAddresses > 0 && this.others.delete(key)) this.objectsAtAddresses--;
    } else {
      this.table.delete(n);
      if (!this.others.has(key)) this.objectsAtAddresses++;
      this.others.set(key, value);
    }
    return this;
  }

  delete(key: string): boolean {
    const n = this.addressOf(key);
    if (n < 0) return this.others.delete(key);
    if (this.table.delete(n)) return true;
    if (this.objectsAtAddresses > 0 && this.others.delete(key)) {
      this.objectsAtAddresses--;
      return true;
    }
    return false;
  }

  clear(): void {
    this.table.clear();
    this.others.clear();
    this.objectsAtAddresses = 0;
  }

  get size(): number {
    return this.table.size + this.others.size;
  }

  /** How many shards `sweepShard` takes (0 … shardCount − 1); every key is in one of them. */
  get shardCount(): number {
    return this.table.shardCount;
  }

  /**
   * Keeps the counters of one shard for which `keep(counter, key)` is true. `key()` spells the counter's key
   * (a string made only when asked for); `keep` must not change this map.
   */
  sweepShard(shard: number, keep: (counter: PackedCounter, key: () => string) => boolean): void {
    const prefix = this.prefix;
    this.table.sweepShard(shard, (n, v) => keep(v, () => prefix + ipv4Text(n)));
    for (const [key, v] of this.others.shardEntries(shard)) {
      if (keep(v, () => key)) continue;
      this.others.delete(key);
      if (this.addressOf(key) > 0) this.objectsAtAddresses--;
    }
  }

  /** Every counter with its key (for tests and tools: it spells every key). */
  *entries(): IterableIterator<[string, PackedCounter]> {
    for (const [n, v] of this.table.entries()) yield [this.prefix + ipv4Text(n), v];
    yield* this.others;
  }
}

/** The keys `CounterKeySet.drain` took out: IPv4 addresses as numbers, any other key as its text. */
export interface DrainedKeys {
  addresses: Uint32Array;
  others: string[];
}

/**
 * A set of keys spelled as `CounterMap`'s (ADR 052): `prefix` + a dotted IPv4 address is a slot of a `Uint32Table`,
 * any other key a string in a `Set`. The write-behind store's changed and written keys: as strings, every address
 * of a busy hour was an object kept for the hour, and each second's changed keys a set of strings that outlived
 * the young generation's collections until they were written.
 */
export class CounterKeySet {
  private readonly table: Uint32Table;
  private readonly others = new Set<string>();

  constructor(
    readonly prefix: string,
    bits = 6,
  ) {
    this.table = new Uint32Table(bits);
  }

  add(key: string): this {
    const n = addressOf(this.prefix, key);
    if (n > 0) this.table.set(n, 1);
    else this.others.add(key);
    return this;
  }

  has(key: string): boolean {
    const n = addressOf(this.prefix, key);
    return n > 0 ? this.table.has(n) : this.others.has(key);
  }

  delete(key: string): boolean {
    const n = addressOf(this.prefix, key);
    return n > 0 ? this.table.delete(n) : this.others.delete(key);
  }

  get size(): number {
    return this.table.size + this.others.size;
  }

  /** Empties the set and answers what it held. */
  drain(): DrainedKeys {
    const addresses = new Uint32Array(this.table.size);
    let i = 0;
    this.table.drain((n) => {
      addresses[i++] = n;
    });
    const others = [...this.others];
    this.others.clear();
    return { addresses, others };
  }

  /** Puts back keys `drain` took out. */
  restore(keys: DrainedKeys): void {
    for (const n of keys.addresses) this.table.set(n, 1);
    for (const key of keys.others) this.others.add(key);
  }

  /** How many keys `drained` holds. */
  static count(drained: DrainedKeys): number {
    return drained.addresses.length + drained.others.length;
  }

  /** The `i`th key of `drained` (its addresses first), spelled. */
  keyAt(drained: DrainedKeys, i: number): string {
    const a = drained.addresses;
    return i < a.length ? this.prefix + ipv4Text(a[i] as number) : (drained.others[i - a.length] as string);
  }
}
