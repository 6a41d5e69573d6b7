import type { H5Config } from '@lm/shared/channel';
import type { Redis } from 'ioredis';

/** How long a channel's configuration is cached (server cache and the browser's cache-control). */
export const H5_CONFIG_TTL_SECONDS = 30;

/**
 * How long a shared cache (nginx's micro-cache, deploy/nginx.conf, ADR 062) may give an answer that is the same
 * for everybody — h5Config of a channel without A/B arms, that channel's landing and login pages — without asking
 * an instance again (`s-maxage`). A console edit reaches a visitor through nginx within this many seconds more
 * than it reaches an instance.
 */
export const EDGE_CACHE_SECONDS = 5;

/**
 * How long an instance keeps a configuration in its own memory in front of Redis (the L1), by default
 * (CHANNEL_L1_TTL_MS). Every invalidation reaches every instance's L1 at once through Redis pub/sub; the
 * TTL bounds the staleness only if a message were lost (the L1 is off while the subscription is down).
 */
export const H5_CONFIG_L1_TTL_MS = 5_000;

/** `null` caches "no such channel" so that unknown codes do not reach the database each time. */
export type CachedConfig = H5Config | null;

export interface ConfigCache {
  readonly name: 'memory' | 'redis';
  /** `undefined` on a miss. */
  get(code: string): Promise<CachedConfig | undefined>;
  set(code: string, value: CachedConfig): Promise<void>;
  delete(code: string): Promise<void>;
}

/**
 * Per-process cache with a TTL and a size cap (oldest entry evicted first). An entry past its TTL is kept
 * `graceMs` longer for `peekServing`, marked stale: the channel service answers it while one read replaces it,
 * instead of every request of that moment reading the database (ADR 049).
 */
export class MemoryConfigCache implements ConfigCache {
  readonly name = 'memory';
  private readonly entries = new Map<string, { value: CachedConfig; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 5_000,
    private readonly now: () => number = Date.now,
    private readonly graceMs = ttlMs,
  ) {}

  /** The fresh entry for `code` without a promise (the hot path reads it synchronously). */
  peek(code: string): CachedConfig | undefined {
    const hit = this.entries.get(code);
    return hit !== undefined && hit.expiresAt > this.now() ? hit.value : undefined;
  }

  /**
   * The entry for `code`, fresh or stale (past its TTL, within the grace: `onStale(code)` is called, and the
   * caller replaces it); none once the grace is over. Without a promise or an allocation (the hot path).
   */
  peekServing(code: string, onStale: (code: string) => void): CachedConfig | undefined {
    const hit = this.entries.get(code);
    if (!hit) return undefined;
    const now = this.now();
    if (hit.expiresAt > now) return hit.value;
    if (hit.expiresAt + this.graceMs > now) {
      onStale(code);
      return hit.value;
    }
    this.entries.delete(code);
    return undefined;
  }

  put(code: string, value: CachedConfig): void {
    this.entries.delete(code);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(code, { value, expiresAt: this.now() + this.ttlMs });
  }

  drop(code: string): void {
    this.entries.delete(code);
  }

  clear(): void {
    this.entries.clear();
  }

  async get(code: string): Promise<CachedConfig | undefined> {
    return this.peek(code);
  }

  async set(code: string, value: CachedConfig): Promise<void> {
    this.put(code, value);
  }

  async delete(code: string): Promise<void> {
    this.drop(code);
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * Shared cache in Redis so that every instance answers the same configuration and an invalidation
 * reaches all of them. Redis trouble is not the visitor's problem: a failed read is a miss (the
 * caller reads the database), a failed write is ignored.
 */
export class RedisConfigCache implements ConfigCache {
  readonly name = 'redis';

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly ttlMs: number,
    private readonly onError: (err: Error) => void = () => {},
  ) {}

  key(code: string): string {
    return `${this.prefix}h5config:${code}`;
  }

  async get(code: string): Promise<CachedConfig | undefined> {
    try {
      const raw = await this.redis.get(this.key(code));
      return raw === null ? undefined : (JSON.parse(raw) as CachedConfig);
    } catch (err) {
      this.onError(err as Error);
      return undefined;
    }
  }

  async set(code: string, value: CachedConfig): Promise<void> {
    try {
      await this.redis.set(this.key(code), JSON.stringify(value), 'PX', this.ttlMs);
    } catch (err) {
      this.onError(err as Error);
    }
  }

  async delete(code: string): Promise<void> {
    await this.redis.del(this.key(code));
  }

  /** The pub/sub channel on which invalidated codes are announced to every instance. */
  get invalidationChannel(): string {
    return `${this.prefix}h5config:invalidate`;
  }

  /** Tells every instance (their L1) that `code` changed. */
  async announce(code: string): Promise<void> {
    await this.redis.publish(this.invalidationChannel, code);
  }
}
