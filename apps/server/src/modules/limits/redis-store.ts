import type { Redis } from 'ioredis';
import type { CounterStore, HitResult } from './limiter.ts';

// INCR, and on the first hit of a window set its end; answers the count and the end (ms epoch).
const INCREMENT = `
local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIREAT', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIREAT', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) - tonumber(ARGV[2]) end
return {c, ttl}`;

const DECREMENT = `
local c = tonumber(redis.call('GET', KEYS[1]) or '0')
if c > 0 then redis.call('DECR', KEYS[1]) end
return c`;

/** Whether an error of a Redis command means "Redis is unreachable" (no offline queue: commands fail fast). */
export function isRedisDown(err: unknown): boolean {
  const e = err as { name?: string; message?: string };
  return (
    e?.name === 'MaxRetriesPerRequestError' ||
    /Stream isn't writeable|Connection is closed|enableOfflineQueue|ECONNREFUSED.*6379/i.test(
      e?.message ?? '',
    )
  );
}

/** Counters in Redis, shared by every API instance. Errors propagate (the fallback store or the caller decides). */
export class RedisCounterStore implements CounterStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async increment(key: string, expiresAt: Date): Promise<HitResult> {
    const now = Date.now();
    const [count, ttl] = (await this.redis.eval(
      INCREMENT,
      1,
      `${this.prefix}rl:${key}`,
      String(expiresAt.getTime()),
      String(now),
    )) as [number, number];
    return { count, resetAt: new Date(now + Math.max(ttl, 0)) };
  }

  /** The same script for each key, in one pipeline (one round trip). */
  async incrementMany(hits: { key: string; expiresAt: Date }[]): Promise<HitResult[]> {
    const now = Date.now();
    const pipeline = this.redis.pipeline();
    for (const h of hits) {
      pipeline.eval(INCREMENT, 1, `${this.prefix}rl:${h.key}`, String(h.expiresAt.getTime()), String(now));
    }
    const results = (await pipeline.exec()) ?? [];
    if (results.length !== hits.length)
      throw new Error('Redis pipeline answered the wrong number of results');
    return results.map(([err, value]) => {
      if (err) throw err;
      const [count, ttl] = value as [number, number];
      return { count, resetAt: new Date(now + Math.max(ttl, 0)) };
    });
  }

  async decrement(key: string): Promise<void> {
    await this.redis.eval(DECREMENT, 1, `${this.prefix}rl:${key}`);
  }

  async get(key: string): Promise<HitResult | null> {
    const k = `${this.prefix}rl:${key}`;
    const [[, count], [, ttl]] = (await this.redis.multi().get(k).pttl(k).exec()) as [
      [unknown, string | null],
      [unknown, number],
    ];
    if (count === null || ttl < 0) return null;
    return { count: Number(count), resetAt: new Date(Date.now() + ttl) };
  }

  async clear(key: string): Promise<void> {
    await this.redis.del(`${this.prefix}rl:${key}`);
  }
}
