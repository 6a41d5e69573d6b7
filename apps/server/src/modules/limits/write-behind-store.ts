import { ShardedMap } from '../../lib/sharded-map.ts';
import type { CounterStore, HitResult } from './limiter.ts';

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
  /** One entry per address of the last hour: in shards, none of which grows in one long copy (ADR 048). */
  private readonly counts = new ShardedMap<{ count: number; expiresAt: number }>();
  /** The shard of `counts` that `sweep` walks next. */
  private sweepAt = 0;
  private readonly dirty = new Set<string>();
  /** Keys with a row (loaded, or written since): their changes are written whatever the count. */
  private readonly persisted = new Set<string>();
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
  ) {}

  /** Reads the live counters of `keyPrefix` (before the app serves). */
  async load(): Promise<void> {
    for (const r of await this.snapshots.loadPrefix(this.keyPrefix)) {
      if (!this.counts.has(r.key))
        this.counts.set(r.key, { count: r.count, expiresAt: r.expiresAt.getTime() });
    }
  }

  private live(key: string, now: number) {
    if (!key.startsWith(this.keyPrefix)) throw new Error(`${key} is not counted by this store`);
    const e = this.counts.get(key);
    return e && e.expiresAt > now ? e : undefined;
  }

  increment(key: string, expiresAt: Date): Promise<HitResult> {
    const now = Date.now();
    let e = this.live(key, now);
    if (e) e.count++;
    else {
      e = { count: 1, expiresAt: expiresAt.getTime() };
      this.counts.set(key, e);
    }
    this.touch(key);
    return Promise.resolve({ count: e.count, resetAt: new Date(e.expiresAt) });
  }

  decrement(key: string): Promise<void> {
    const e = this.live(key, Date.now());
    if (e && e.count > 0) {
      e.count--;
      this.touch(key);
    }
    return Promise.resolve();
  }

  get(key: string): Promise<HitResult | null> {
    const e = this.live(key, Date.now());
    return Promise.resolve(e ? { count: e.count, resetAt: new Date(e.expiresAt) } : null);
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
    const keys = [...this.dirty];
    this.dirty.clear();
    const now = Date.now();
    const rows: CounterRow[] = keys.map((key) => {
      const e = this.counts.get(key);
      // A cleared or ended window is written as ended (a reader sees no live counter).
      return e && e.expiresAt > now
        ? { key, count: e.count, expiresAt: new Date(e.expiresAt) }
        : { key, count: 0, expiresAt: new Date(now) };
    });
    // Ended windows leave memory (the database's sweep removes their rows).
    for (const key of keys) {
      const e = this.counts.get(key);
      if (!e || e.expiresAt <= now) {
        this.counts.delete(key);
        this.persisted.delete(key);
      }
    }
    this.writing = this.save(rows);
    try {
      await this.writing;
      this.failures = 0;
    } catch (err) {
      for (const key of keys) this.dirty.add(key);
      this.failures++;
      this.onWriteError(err);
      this.schedule(Math.min(this.opts.retryMs * 2 ** Math.min(this.failures - 1, 6), 30_000));
      throw err;
    } finally {
      this.writing = null;
    }
  }

  /**
   * Writes the rows in statements of at most `maxRowsPerStatement`, each in a turn of the event loop of its
   * own: on the embedded PGlite a statement runs on the event loop's thread (~20 µs a row), and a thousand
   * addresses' counters in one statement held every answer in flight for 20–25 ms (ADR 044).
   */
  private async save(rows: CounterRow[]): Promise<void> {
    const size = this.opts.maxRowsPerStatement ?? MAX_ROWS_PER_STATEMENT;
    for (let at = 0; at < rows.length; at += size) {
      if (at > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      await this.snapshots.saveMany(rows.slice(at, at + size));
    }
  }

  /**
   * Drops ended windows from memory (their rows are swept by the database store), from one shard of the
   * counters a call (ADR 048): walking a million addresses' counters at once stopped the event loop for tens
   * of ms. `sweepSteps` calls walk them all.
   */
  sweep(now = Date.now()): void {
    const shard = this.sweepAt;
    this.sweepAt = (shard + 1) % this.counts.shardCount;
    for (const [key, e] of this.counts.shardEntries(shard))
      if (e.expiresAt <= now && !this.dirty.has(key)) this.counts.delete(key);
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

  private touch(key: string): void {
    const e = this.counts.get(key);
    // A count below `persistFrom` is not written (nor its row changed) unless it was written before.
    if (e && e.count < (this.opts.persistFrom ?? 1) && !this.persisted.has(key)) return;
    if (e && e.count >= (this.opts.persistFrom ?? 1)) this.persisted.add(key);
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
