import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { MemoryConfigCache, RedisConfigCache } from './cache.ts';
import { buildH5Config } from './rules.ts';

const OPERATOR = { companyName: '配置运营有限公司', filingNumber: '粤ICP备2026000099号' };

describe('MemoryConfigCache', () => {
  it('expires entries after the TTL and caches absence', async () => {
    let now = 1_000;
    const cache = new MemoryConfigCache(30_000, 10, () => now);
    const config = buildH5Config(null, OPERATOR);
    await cache.set('a', config);
    await cache.set('gone', null);
    expect(await cache.get('a')).toEqual(config);
    expect(await cache.get('gone')).toBeNull();
    expect(await cache.get('other')).toBeUndefined();
    now += 29_999;
    expect(await cache.get('a')).toEqual(config);
    now += 1;
    expect(await cache.get('a')).toBeUndefined();
    expect(await cache.get('gone')).toBeUndefined();
  });
  it('evicts the oldest entry beyond its size cap and deletes on demand', async () => {
    const cache = new MemoryConfigCache(30_000, 2);
    await cache.set('a', null);
    await cache.set('b', null);
    await cache.set('c', null);
    expect(cache.size).toBe(2);
    expect(await cache.get('a')).toBeUndefined();
    expect(await cache.get('c')).toBeNull();
    await cache.delete('c');
    expect(await cache.get('c')).toBeUndefined();
  });
});

describe('RedisConfigCache', () => {
  it('stores JSON with a TTL under its prefix', async () => {
    const calls: unknown[][] = [];
    const store = new Map<string, string>();
    const fake = {
      get: async (k: string) => store.get(k) ?? null,
      set: async (...args: [string, string, string, number]) => {
        calls.push(args);
        store.set(args[0], args[1]);
        return 'OK';
      },
      del: async (k: string) => Number(store.delete(k)),
    } as unknown as Redis;
    const cache = new RedisConfigCache(fake, 'lm:t:', 30_000);
    await cache.set('demo', null);
    expect(calls[0]).toEqual(['lm:t:h5config:demo', 'null', 'PX', 30_000]);
    expect(await cache.get('demo')).toBeNull();
    expect(await cache.get('other')).toBeUndefined();
    await cache.delete('demo');
    expect(await cache.get('demo')).toBeUndefined();
  });
  it('treats Redis trouble as a miss so the database answers', async () => {
    const errors: string[] = [];
    const down = {
      get: async () => {
        throw new Error('Connection is closed.');
      },
      set: async () => {
        throw new Error('Connection is closed.');
      },
    } as unknown as Redis;
    const cache = new RedisConfigCache(down, 'lm:', 30_000, (e) => errors.push(e.message));
    expect(await cache.get('demo')).toBeUndefined();
    await cache.set('demo', buildH5Config(null, OPERATOR));
    expect(errors).toEqual(['Connection is closed.', 'Connection is closed.']);
  });
});
