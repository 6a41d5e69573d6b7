import { shanghaiDate } from '@lm/shared/time';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelClicks } from '../../src/db/schema.ts';
import { blindIndex } from '../../src/lib/crypto.ts';
import {
  type ClickRow,
  type ClickStore,
  DatabaseClickStore,
  RedisClickStore,
} from '../../src/modules/channels/click-store.ts';
import { ChannelRepository } from '../../src/modules/channels/repository.ts';
import {
  BACKEND,
  body,
  createTestApp,
  newIp,
  REDIS_URL,
  secondInstance,
  type TestContext,
} from '../helpers.ts';

/**
 * Redis only (npm run test:pg sets TEST_REDIS_URL): the click store with Redis (issue 45.3, ADR 063). A returning
 * visitor is answered by Redis's `SET NX` claim without a statement; a new one's row is stored before the answer
 * and the database's unique index still decides, so a Redis that lost its keys, or cannot be reached, never
 * counts a fingerprint twice.
 */
let ctx: TestContext;
let b: FastifyInstance;
let redis: Redis;
beforeAll(async () => {
  if (!REDIS_URL) throw new Error('TEST_REDIS_URL is required for the click store test');
  ctx = await createTestApp();
  b = await secondInstance(ctx);
  redis = new Redis(REDIS_URL);
});
afterAll(async () => {
  redis?.disconnect();
  await b?.close();
  await ctx?.close();
});

type Answer = { counted: boolean; flagged: boolean };
const click = async (app: FastifyInstance, code: string, fp?: string) =>
  body<Answer>(
    await app.inject({
      url: `/api/reportAdChannelClick?adChannelCode=${code}${fp ? `&fingerprint=${fp}` : ''}`,
      remoteAddress: newIp(),
    }),
  ).data;
const rowsOf = (code: string) =>
  ctx.app.database.db.select().from(channelClicks).where(eq(channelClicks.adChannelCode, code));
const uniq = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
/** This app's claim key of a fingerprint's click on a channel today. */
const claimKey = (code: string, fp: string) =>
  `lm:${ctx.shared.limiterPrefix}click:${shanghaiDate()}:${code}:${blindIndex(ctx.app.services.keys.ring, 'device', fp)}`;
const row = (code: string, hash: string | null): ClickRow => ({
  adChannelCode: code,
  fingerprintHash: hash,
  day: shanghaiDate(),
  abTestType: null,
  ip: '10.9.8.7',
  at: new Date(),
});

describe(`clicks with Redis (${BACKEND})`, () => {
  it('answers a returning visitor from its claim in Redis, on either instance, without a statement', async () => {
    const code = 'demo-skin9';
    const fp = `ret-${uniq()}`;
    expect(await click(ctx.app, code, fp)).toEqual({ counted: true, flagged: false });
    expect(await redis.exists(claimKey(code, fp))).toBe(1);
    expect((await redis.pttl(claimKey(code, fp))) > 24 * 3600_000).toBe(true);
    const mine = async () => (await rowsOf(code)).filter((r) => r.ip !== null && r.fingerprintHash !== null);
    const stored = (await mine()).length;
    // The row is gone from the table: a statement would store it again; the claim answers instead.
    await ctx.app.database.db.delete(channelClicks).where(eq(channelClicks.adChannelCode, code));
    expect(await click(b, code, fp)).toEqual({ counted: false, flagged: false });
    expect(await click(ctx.app, code, fp)).toEqual({ counted: false, flagged: false });
    expect(stored).toBeGreaterThan(0);
    expect(await mine()).toHaveLength(0);
  });

  it('when Redis lost its keys, a stored fingerprint is not counted again (the table decides)', async () => {
    const code = 'demo-skin10';
    const fp = `lost-${uniq()}`;
    expect(await click(ctx.app, code, fp)).toEqual({ counted: true, flagged: false });
    await redis.del(claimKey(code, fp));
    expect(await click(b, code, fp)).toEqual({ counted: false, flagged: false });
    // …and the claim is back, so the next repeat costs no statement.
    expect(await redis.exists(claimKey(code, fp))).toBe(1);
    const hash = blindIndex(ctx.app.services.keys.ring, 'device', fp);
    expect((await rowsOf(code)).filter((r) => r.fingerprintHash === hash)).toHaveLength(1);
  });

  it('stores a click without a fingerprint flagged, never claimed', async () => {
    const code = 'demo-skin11';
    const before = (await rowsOf(code)).filter((r) => r.flagged).length;
    expect(await click(ctx.app, code)).toEqual({ counted: false, flagged: true });
    expect((await rowsOf(code)).filter((r) => r.flagged)).toHaveLength(before + 1);
  });

  it('an unreachable Redis leaves the decision to the database, and says so', async () => {
    const down = new Redis({
      port: 1,
      host: '127.0.0.1',
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    down.on('error', () => {});
    const errors: unknown[] = [];
    const database = new DatabaseClickStore(new ChannelRepository(ctx.app.database.db));
    const store = new RedisClickStore(down, 'lm:down:', database, (err) => errors.push(err));
    const code = 'demo-skin12';
    const hash = `down-${uniq()}`;
    expect(await store.record(row(code, hash))).toBe(true);
    expect(await store.record(row(code, hash))).toBe(false);
    expect(errors).toHaveLength(2);
    expect((await rowsOf(code)).filter((r) => r.fingerprintHash === hash)).toHaveLength(1);
    down.disconnect();
  });

  it('gives the claim back when the row cannot be stored, so the next click is counted', async () => {
    const failing: ClickStore = {
      record: async () => {
        throw new Error('database unavailable');
      },
    };
    const prefix = `lm:${ctx.shared.limiterPrefix}fail:`;
    const code = 'demo-skin13';
    const hash = `fail-${uniq()}`;
    const store = new RedisClickStore(redis, prefix, failing);
    await expect(store.record(row(code, hash))).rejects.toThrow('database unavailable');
    expect(await redis.exists(`${prefix}click:${shanghaiDate()}:${code}:${hash}`)).toBe(0);
    const working = new RedisClickStore(
      redis,
      prefix,
      new DatabaseClickStore(new ChannelRepository(ctx.app.database.db)),
    );
    expect(await working.record(row(code, hash))).toBe(true);
  });
});
