import { type AppError, appError } from '../../lib/errors.ts';
/**
 * Rate limits and counters. A window starts at its first hit and lasts `windowMs` (or until a
 * fixed instant, for calendar-day limits). Two stores: the database (default) and Redis.
 */
export interface HitResult {
  count: number;
  /** When the current window ends. */
  resetAt: Date;
}

export interface CounterStore {
  /** Atomically adds one and returns the new count. */
  increment(key: string, expiresAt: Date): Promise<HitResult>;
  /**
   * Adds one to each of several distinct keys in one round trip; results in the order of `hits`.
   * Optional: without it, consumeAll increments key by key.
   */
  incrementMany?(hits: { key: string; expiresAt: Date }[]): Promise<HitResult[]>;
  /** Takes one back (a refused attempt does not count). */
  decrement(key: string): Promise<void>;
  /** Current count (0 when absent or expired). */
  get(key: string): Promise<HitResult | null>;
  clear(key: string): Promise<void>;
  close?(): Promise<void>;
}

export type Window = { ms: number } | { until: Date };

export interface Decision {
  allowed: boolean;
  count: number;
  /** Milliseconds until the window resets (0 when allowed). */
  retryAfterMs: number;
}

function expiryOf(window: Window, now: number): Date {
  return 'until' in window ? window.until : new Date(now + window.ms);
}

/** A wait in words: 'N秒', 'N分钟' or 'N小时'. */
export function describeWait(seconds: number): string {
  if (seconds <= 60) return `${Math.max(1, Math.ceil(seconds))}秒`;
  if (seconds < 3600) return `${Math.ceil(seconds / 60)}分钟`;
  return `${Math.ceil(seconds / 3600)}小时`;
}

/** RATE_LIMITED: "<what>过于频繁，请…后再试", `data.retryAfter` in seconds. */
function limitedError(what: string, retryAfterMs: number): AppError {
  const retryAfter = Math.ceil(retryAfterMs / 1000);
  return appError('RATE_LIMITED', `${what}过于频繁，请${describeWait(retryAfter)}后再试`, { retryAfter });
}

export class Limiter {
  constructor(
    readonly store: CounterStore,
    readonly name: 'database' | 'redis',
    /** Told the key of each refused attempt (metrics count refusals by limit). */
    private readonly onRefused?: (key: string) => void,
  ) {}

  /** Counts one attempt against `limit`; refused attempts are not counted. */
  async consume(key: string, limit: number, window: Window, now = Date.now()): Promise<Decision> {
    const hit = await this.store.increment(key, expiryOf(window, now));
    if (hit.count <= limit) return { allowed: true, count: hit.count, retryAfterMs: 0 };
    await this.store.decrement(key);
    this.onRefused?.(key);
    return {
      allowed: false,
      count: hit.count - 1,
      retryAfterMs: Math.max(hit.resetAt.getTime() - now, 1000),
    };
  }

  /**
   * Consumes one unit or throws RATE_LIMITED: "<what>过于频繁，请…后再试", `data.retryAfter` in seconds.
   */
  async enforce(key: string, limit: number, window: Window, what: string): Promise<void> {
    const d = await this.consume(key, limit, window);
    if (!d.allowed) throw limitedError(what, d.retryAfterMs);
  }

  /**
   * Consumes several limits; all or nothing (a refused attempt counts against none of them).
   * Returns the first refusal in the order of `rules` (its key and reason), or, when every limit allows, each key's count
   * after this attempt (in the order of `rules`). With a store that increments several keys at once
   * (both stores here), that is one round trip when every limit allows.
   *
   * Also the "reserve" step of reserve-then-settle (staff passwords, SMS codes): take the unit before
   * the check it guards, so that checks in flight count and no more than `limit` of them ever run
   * in a window however many arrive at once; then keep it (a failure) or give it back.
   */
  async consumeAll(
    rules: { key: string; limit: number; window: Window; reason: string }[],
    now = Date.now(),
  ): Promise<
    | { allowed: true; counts: number[] }
    | { allowed: false; key: string; reason: string; retryAfterMs: number }
  > {
    const distinct = new Set(rules.map((r) => r.key)).size === rules.length;
    if (this.store.incrementMany && distinct && rules.length > 1) {
      const hits = await this.store.incrementMany(
        rules.map((r) => ({ key: r.key, expiresAt: expiryOf(r.window, now) })),
      );
      const refused = rules.findIndex((r, i) => hits[i]!.count > r.limit);
      if (refused === -1) return { allowed: true, counts: hits.map((h) => h.count) };
      for (const r of rules) await this.store.decrement(r.key);
      this.onRefused?.(rules[refused]!.key);
      return {
        allowed: false,
        key: rules[refused]!.key,
        reason: rules[refused]!.reason,
        retryAfterMs: Math.max(hits[refused]!.resetAt.getTime() - now, 1000),
      };
    }
    const taken: string[] = [];
    const counts: number[] = [];
    for (const rule of rules) {
      const d = await this.consume(rule.key, rule.limit, rule.window, now);
      if (!d.allowed) {
        for (const key of taken) await this.store.decrement(key);
        return { allowed: false, key: rule.key, reason: rule.reason, retryAfterMs: d.retryAfterMs };
      }
      taken.push(rule.key);
      counts.push(d.count);
    }
    return { allowed: true, counts };
  }

  /** Records one event without a limit (e.g. a failed check). */
  async record(key: string, window: Window, now = Date.now()): Promise<HitResult> {
    return this.store.increment(key, expiryOf(window, now));
  }

  /**
   * Whether `key` is already at or over `limit` in its current window. Not for guarding a check:
   * "is it exhausted? → check → record" lets every request in flight through the first step (issue
   * 15: 40 parallel wrong passwords were all evaluated); reserve with `consume`/`consumeAll` instead.
   */
  async isExhausted(key: string, limit: number, now = Date.now()): Promise<Decision> {
    const hit = await this.store.get(key);
    if (!hit || hit.count < limit) return { allowed: true, count: hit?.count ?? 0, retryAfterMs: 0 };
    return { allowed: false, count: hit.count, retryAfterMs: Math.max(hit.resetAt.getTime() - now, 1000) };
  }
}
