import fp from 'fastify-plugin';
import { Redis } from 'ioredis';

export interface RedisPluginOptions {
  redis?: Redis | undefined;
}

/**
 * Optional Redis (REDIS_URL): rate limits and counters move there so several API instances share
 * them. Commands fail fast while Redis is unreachable (no offline queue): SMS sends and staff logins
 * then refuse, the other limits are counted in the database (modules/limits/fallback-store.ts).
 */
export default fp<RedisPluginOptions>(
  async (app, opts) => {
    if (opts.redis) {
      app.decorate('redis', opts.redis);
      return;
    }
    const url = app.config.REDIS_URL;
    if (!url) {
      app.decorate('redis', null);
      return;
    }
    const redis = new Redis(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2_000,
      retryStrategy: (times) => Math.min(times * 200, 2_000),
    });
    redis.on('error', (err) => app.log.warn({ err: { message: err.message } }, 'redis error'));
    try {
      await redis.connect();
    } catch (err) {
      app.log.error(
        { err: { message: (err as Error).message } },
        'redis unreachable at start; SMS sends and staff logins refuse, other limits use the database until it is back',
      );
    }
    app.decorate('redis', redis);
    app.addHook('onClose', async () => {
      redis.disconnect();
    });
  },
  { name: 'redis' },
);
