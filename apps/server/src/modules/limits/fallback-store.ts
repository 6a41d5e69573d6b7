import type { CounterStore, HitResult } from './limiter.ts';

/**
 * Counters in a primary store (Redis) that fall back to a second one (the database) while the
 * primary is unreachable, so limits keep being enforced — never dropped — and the service goes on.
 * Counts do not move between the stores: during an outage a window starts again in the fallback
 * store, so a limit can let through up to twice its figure across the switch. Limits where that is
 * not acceptable (SMS sends, staff logins) use the primary store alone and refuse instead.
 */
export class FallbackCounterStore implements CounterStore {
  private degraded = false;

  constructor(
    private readonly primary: CounterStore,
    private readonly fallback: CounterStore,
    /** Whether an error means "the primary is unreachable" (anything else propagates). */
    private readonly isDown: (err: unknown) => boolean,
    /** Called once when the fallback starts being used and once when the primary answers again. */
    private readonly onSwitch: (usingFallback: boolean, err?: unknown) => void = () => {},
  ) {}

  get usingFallback(): boolean {
    return this.degraded;
  }

  private async run<T>(op: (store: CounterStore) => Promise<T>): Promise<T> {
    try {
      const result = await op(this.primary);
      if (this.degraded) {
        this.degraded = false;
        this.onSwitch(false);
      }
      return result;
    } catch (err) {
      if (!this.isDown(err)) throw err;
      if (!this.degraded) {
        this.degraded = true;
        this.onSwitch(true, err);
      }
      return op(this.fallback);
    }
  }

  increment(key: string, expiresAt: Date): Promise<HitResult> {
    return this.run((s) => s.increment(key, expiresAt));
  }

  incrementMany(hits: { key: string; expiresAt: Date }[]): Promise<HitResult[]> {
    return this.run((s) =>
      s.incrementMany ? s.incrementMany(hits) : Promise.all(hits.map((h) => s.increment(h.key, h.expiresAt))),
    );
  }

  decrement(key: string): Promise<void> {
    return this.run((s) => s.decrement(key));
  }

  get(key: string): Promise<HitResult | null> {
    return this.run((s) => s.get(key));
  }

  clear(key: string): Promise<void> {
    return this.run((s) => s.clear(key));
  }
}
