import { TurnBatcher } from '../../lib/turn-batcher.ts';
import type { CounterStore, HitResult } from './limiter.ts';

interface Pending {
  key: string;
  expiresAt: Date;
  resolve(hit: HitResult): void;
  reject(err: unknown): void;
}

/**
 * A counter store whose increments, queued within one turn of the event loop, go to the inner store
 * together: one `incrementMany` (one statement on the database, one pipeline on Redis) for a burst of
 * clicks instead of one round trip each (issue 17.3). Every hit still gets its own atomic count from the
 * shared store, so a limit means exactly what it meant, across instances: a key hit k times in one batch
 * is incremented in k rounds (the stores' incrementMany takes each key once). Each caller waits for its
 * own count. The rest (decrement, get, clear) goes straight to the inner store.
 */
export class BatchingCounterStore implements CounterStore {
  private readonly batches: TurnBatcher<Pending>;

  constructor(
    readonly inner: CounterStore,
    maxBatch = 500,
    /** Batches written at once; more queue meanwhile (so a busy store gets bigger batches). */
    maxInFlight = 2,
  ) {
    this.batches = new TurnBatcher((batch) => this.write(batch), maxBatch, maxInFlight);
  }

  increment(key: string, expiresAt: Date): Promise<HitResult> {
    return new Promise((resolve, reject) => {
      this.batches.push({ key, expiresAt, resolve, reject });
    });
  }

  private async write(batch: Pending[]): Promise<void> {
    // Round r holds the (r+1)-th hit of each key in the batch.
    const rounds: Pending[][] = [];
    const seen = new Map<string, number>();
    for (const p of batch) {
      const r = seen.get(p.key) ?? 0;
      seen.set(p.key, r + 1);
      const round = rounds[r] ?? [];
      rounds[r] = round;
      round.push(p);
    }
    for (const round of rounds) {
      try {
        const hits =
          round.length > 1 && this.inner.incrementMany
            ? await this.inner.incrementMany(round.map((p) => ({ key: p.key, expiresAt: p.expiresAt })))
            : await Promise.all(round.map((p) => this.inner.increment(p.key, p.expiresAt)));
        for (const [i, p] of round.entries()) p.resolve(hits[i]!);
      } catch (err) {
        for (const p of round) p.reject(err);
      }
    }
  }

  incrementMany(hits: { key: string; expiresAt: Date }[]): Promise<HitResult[]> {
    return Promise.all(hits.map((h) => this.increment(h.key, h.expiresAt)));
  }

  decrement(key: string): Promise<void> {
    return this.inner.decrement(key);
  }

  get(key: string): Promise<HitResult | null> {
    return this.inner.get(key);
  }

  clear(key: string): Promise<void> {
    return this.inner.clear(key);
  }
}
