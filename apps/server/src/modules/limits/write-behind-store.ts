import { CounterKeySet, CounterMap, type DrainedKeys } from './counter-map.ts';
import type { CounterStore, HitResult } from './limiter.ts';
import { counterCount, counterEnd, type PackedCounter, packCounter } from './packed-counter.ts';

export interface CounterRow {
  key: string;
  count: number;
  expiresAt: Date;
}

/** Counters written in one statement at most (a flush writes more in several, a turn each). */
export const MAX_ROWS_PER_STATEMENT = 100;

/** Where a write-behind store keeps its counters (DbCounterStore). */
export interface CounterSnapshots {
  loadPrefix(keyPrefix: string): Promise<CounterRow[]>;
  saveMany(rows: CounterRow[]): Promise<void>;
}

/**
 * Counters held in this process's memory and written to the database a few ms later (ADR 033): for the
 * click report's per-IP limit on the embedded PGlite, which only this process can open, so memory is
 * the truth once `load` has read the live counters of its keys. A hit costs no statement; the counts of
 * one flush go in one statement, so a restart keeps them (all but the last `flushDelayMs` after a
 * crash; counts below `persistFrom` are not written at all). Only keys starting with `keyPrefix` may be counted here (nothing else writes them).
 */
export class WriteBehindCounterStore implements CounterStore {
  /**
   * One entry per address of the last hour (ADR 048, ADR 050): in shards, none of which grows in one long copy,
   * each counter packed in a small integer, an IPv4 address's in typed arrays (no object on the heap per address).
   */
  private readonly counts: CounterMap;
  /** The shard of `counts` that `sweep` walks next. */
  private sweepAt = 0;
  /** Keys whose counter changed since it was last written (ADR 052: an IPv4 address's as a number). */
  private readonly dirty: CounterKeySet;
  /** Keys with a row (loaded, or written since): their changes are written whatever the count. */
  private readonly persisted: CounterKeySet;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | null = null;
  private failures = 0;

  constructor(
    private readonly snapshots: CounterSnapshots,
    readonly keyPrefix: string,
    private readonly opts: {
      flushDelayMs: number;
      retryMs: number;
      /**
       * Counts below this stay in memory only: a restart forgets them (an address gets at most this many
       * more clicks that hour), and a burst of new visitors — one address each — writes no row per click.
       */
      persistFrom?: number;
      /** Rows written in one statement at most (default MAX_ROWS_PER_STATEMENT). */
      maxRowsPerStatement?: number;
    } = { flushDelayMs: 50, retryMs: 500, persistFrom: 1 },
    private readonly onWriteError: (err: unknown) => void = () => {},
  ) {
    this.counts = new CounterMap(keyPrefix);
    this.dirty = new CounterKeySet(keyPrefix);
    this.persisted = new CounterKeySet(keyPrefix);
  }

  /** Reads the live counters of `keyPrefix` (before the app serves). */
  async load(): Promise<void> {
    for (const r of await this.snapshots.loadPrefix(this.keyPrefix)) {
      if (!this.counts.has(r.key))
        this.counts.set(r.key, packCounter(r.count, r.expiresAt.getTime(), Date.now()));
    }
  }

  private live(key: string, now: number): PackedCounter | undefined {
    if (!key.startsWith(this.keyPrefix)) throw new Error(`${key} is not counted by this store`);
    const e = this.counts.get(key);
    return e !== undefined && counterEnd(e, now) > now ? e : undefined;
  }

  increment(key: string, expiresAt: Date): Promise<HitResult> {
    const now = Date.now();
    const e = this.live(key, now);
    const count = e === undefined ? 1 : counterCount(e) + 1;
    const packed = packCounter(count, e === undefined ? expiresAt.getTime() : counterEnd(e, now), now);
    this.counts.set(key, packed);
    this.touch(key, count);
    return Promise.resolve({ count, resetAt: new Date(counterEnd(packed, now)) });
  }

  decrement(key: string): Promise<void> {
    const now = Date.now();
    const e = this.live(key, now);
    if (e !== undefined && counterCount(e) > 0) {
      const count = counterCount(e) - 1;
      this.counts.set(key, packCounter(count, counterEnd(e, now), now));
      this.touch(key, count);
    }
    return Promise.resolve();
  }

  get(key: string): Promise<HitResult | null> {
    const now = Date.now();
    const e = this.live(key, now);
    return Promise.resolve(
      e === undefined ? null : { count: counterCount(e), resetAt: new Date(counterEnd(e, now)) },
    );
  }

  clear(key: string): Promise<void> {
    if (this.counts.delete(key) && this.persisted.has(key)) {
      // Its row is written as ended.
      this.dirty.add(key);
      this.schedule(this.opts.flushDelayMs);
    }
    return Promise.resolve();
  }

  /** Counts not yet written. */
  get unwritten(): number {
    return this.dirty.size;
  }

  /** Writes every changed counter now (tried again later when the database fails; rejects then). */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.writing) await this.writing.catch(() => {});
    if (this.dirty.size === 0) return;
    const keys = this.dirty.drain();
    this.writing = this.save(keys);
    try {
      await this.writing;
      this.failures = 0;
    } catch (err) {
      this.dirty.restore(keys);
      this.failures++;
      this.onWriteError(err);
      this.schedule(Math.min(this.opts.retryMs * 2 ** Math.min(this.failures - 1, 6), 30_000));
      throw err;
    } finally {
      this.writing = null;
    }
  }

  /**
   * Writes the keys' counters in statements of at most `maxRowsPerStatement`, each in a turn of the event loop
   * of its own: when the embedded PGlite ran on the event loop's thread (before ADR 047; ~20 µs a row), a
   * thousand addresses' counters in one statement held every answer in flight for 20–25 ms (ADR 044). Each
   * statement's rows are made just before it (as they are then): rows for all of a flush's keys at once (20 000
   * returning visitors a second in the hot-path bench) lived through the whole flush and went to the old
   * generation for its collections to find (ADR 050).
   */
  private async save(keys: DrainedKeys): Promise<void> {
    const size = this.opts.maxRowsPerStatement ?? MAX_ROWS_PER_STATEMENT;
    const total = CounterKeySet.count(keys);
    for (let at = 0; at < total; at += size) {
      if (at > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      await this.snapshots.saveMany(this.rowsOf(keys, at, Math.min(at + size, total)));
    }
  }

  /** The rows of `keys[from … to)` now; a cleared or ended window is written as ended and leaves memory. */
  private rowsOf(keys: DrainedKeys, from: number, to: number): CounterRow[] {
    const now = Date.now();
    const rows: CounterRow[] = [];
    for (let i = from; i < to; i++) {
      const key = this.dirty.keyAt(keys, i);
      const e = this.counts.get(key);
      if (e !== undefined && counterEnd(e, now) > now) {
        rows.push({ key, count: counterCount(e), expiresAt: new Date(counterEnd(e, now)) });
        continue;
      }
      // A reader sees no live counter; the database's sweep removes the row.
      rows.push({ key, count: 0, expiresAt: new Date(now) });
      if (e !== undefined) this.counts.delete(key);
      this.persisted.delete(key);
    }
    return rows;
  }

  /**
   * Drops ended windows from memory (their rows are swept by the database store), from one shard of the
   * counters a call (ADR 048): walking a million addresses' counters at once stopped the event loop for tens
   * of ms. `sweepSteps` calls walk them all.
   */
  sweep(now = Date.now()): void {
    const shard = this.sweepAt;
    this.sweepAt = (shard + 1) % this.counts.shardCount;
    const dirty = this.dirty;
    this.counts.sweepShard(
      shard,
      (e, key) => counterEnd(e, now) > now || (dirty.size > 0 && dirty.has(key())),
    );
  }

  /** The calls of `sweep` that walk every counter once. */
  get sweepSteps(): number {
    return this.counts.shardCount;
  }

  /** Counters held in memory (live or not swept yet). */
  get size(): number {
    return this.counts.size;
  }

  /** Stops the timer (the app is closing; `flush` first). */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private touch(key: string, count: number): void {
    // A count below `persistFrom` is not written (nor its row changed) unless it was written before.
    if (count < (this.opts.persistFrom ?? 1) && !this.persisted.has(key)) return;
    if (count >= (this.opts.persistFrom ?? 1)) this.persisted.add(key);
    this.dirty.add(key);
    this.schedule(this.opts.flushDelayMs);
  }

  private schedule(ms: number): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush().catch(() => {
        // Told through onWriteError; tried again on the timer flush() set.
      });
    }, ms);
    this.timer.unref();
  }
}
