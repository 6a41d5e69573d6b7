import type { Redis } from 'ioredis';
import { RedisScript } from '../../lib/redis-script.ts';
import type { CounterStore, HitResult } from './limiter.ts';

// For each key: INCR, and on the first hit of a window set its end (ARGV[i + 1], ms epoch); answers the
// count and the time left (ms) of each key, flat: {c₁, ttl₁, c₂, ttl₂, …}. ARGV[1] is now (ms epoch).
const INCREMENT = new RedisScript(`
local now = tonumber(ARGV[1])
local out = {}
for i = 1, #KEYS do
  local ends = ARGV[i + 1]
  local c = redis.call('INCR', KEYS[i])
  if c == 1 then redis.call('PEXPIREAT', KEYS[i], ends) end
  local ttl = redis.call('PTTL', KEYS[i])
  if ttl < 0 then redis.call('PEXPIREAT', KEYS[i], ends); ttl = tonumber(ends) - now end
  out[2 * i - 1] = c
  out[2 * i] = ttl
end
return out`);

const DECREMENT = `
local c = tonumber(redis.call('GET', KEYS[1]) or '0')
if c > 0 then redis.call('DECR', KEYS[1]) end
return c`;

/** The Redis key of limiter counter `key` under `prefix`. */
export const redisRateKey = (prefix: string, key: string) => `${prefix}rl:${key}`;

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
    const [hit] = await this.incrementMany([{ key, expiresAt }]);
    return hit!;
  }

  /** Every key (each at most once) in one script (one round trip, atomic). */
  async incrementMany(hits: { key: string; expiresAt: Date }[]): Promise<HitResult[]> {
    const now = Date.now();
    const flat = (await INCREMENT.run(
      this.redis,
      hits.map((h) => redisRateKey(this.prefix, h.key)),
      [now, ...hits.map((h) => h.expiresAt.getTime())],
    )) as number[];
    if (flat.length !== hits.length * 2) throw new Error('Redis answered the wrong number of counts');
    return hits.map((_, i) => ({
      count: flat[2 * i]!,
      resetAt: new Date(now + Math.max(flat[2 * i + 1]!, 0)),
    }));
  }

  async decrement(key: string): Promise<void> {
    await this.redis.eval(DECREMENT, 1, redisRateKey(this.prefix, key));
  }

  async get(key: string): Promise<HitResult | null> {
    const k = redisRateKey(this.prefix, key);
    const [[, count], [, ttl]] = (await this.redis.multi().get(k).pttl(k).exec()) as [
      [unknown, string | null],
      [unknown, number],
    ];
    if (count === null || ttl < 0) return null;
    return { count: Number(count), resetAt: new Date(Date.now() + ttl) };
  }

  async clear(key: string): Promise<void> {
    await this.redis.del(redisRateKey(this.prefix, key));
  }
}
