import { shanghaiDate } from '@lm/shared/time';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { channelClicks } from '../../src/db/schema.ts';
import { blindIndex } from '../../src/lib/crypto.ts';
import { RedisClickLedger } from '../../src/modules/channels/click-ledger.ts';
import { ClickRecorder } from '../../src/modules/channels/clicks.ts';
import { ChannelRepository } from '../../src/modules/channels/repository.ts';
import { CLICKS_PER_IP_PER_HOUR, clickLimitKey } from '../../src/modules/channels/service.ts';
import {
  BACKEND,
  body,
  createTestApp,
  newIp,
  REDIS_URL,
  secondInstance,
  staffLogin,
  type TestContext,
} from '../helpers.ts';

/**
 * Redis only (npm run test:pg sets TEST_REDIS_URL): on PostgreSQL with Redis, Redis decides whether a
 * click is a fingerprint's first of the day for every instance, and rows are written behind (ADR 034).
 */
let ctx: TestContext;
let b: FastifyInstance;
let redis: Redis;
const instance = () => secondInstance(ctx);
beforeAll(async () => {
  if (!REDIS_URL) throw new Error('TEST_REDIS_URL is required for the click ledger test');
  ctx = await createTestApp();
  await ctx.app.ready();
  b = await instance();
  await b.ready();
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
/** The day's keys in Redis (this app's prefix). */
const dayPattern = () => `lm:${ctx.shared.limiterPrefix}clicks:{${shanghaiDate()}}:*`;
const markerKey = () => `lm:${ctx.shared.limiterPrefix}clicks:{${shanghaiDate()}}:complete`;
const uniq = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

describe(`clicks decided in Redis, written behind (${BACKEND})`, () => {
  it('both instances answer from Redis at once; the console sees every answered click', async () => {
    expect(ctx.app.services.channels.clicks.ledgerMode).toBe(true);
    expect(b.services.channels.clicks.ledgerMode).toBe(true);
    // The day was copied when the first instance started.
    expect(await redis.exists(markerKey())).toBe(1);
    const code = 'demo-skin17';
    const fp = `led-${uniq()}`;
    expect(await click(ctx.app, code, fp)).toEqual({ counted: true, flagged: false });
    expect(await click(b, code, fp)).toEqual({ counted: false, flagged: false });
    expect(await click(b, code, `${fp}-2`)).toEqual({ counted: true, flagged: false });
    expect(await click(ctx.app, code)).toEqual({ counted: false, flagged: true });

    // The console writes its own instance's queue before it reads (B's clicks are written within
    // its flush delay; here B's queue is settled first, as a few ms would).
    await b.services.channels.settleClicks();
    const { token } = await staffLogin(ctx.app, 'viewer');
    const today = shanghaiDate();
    const funnel = await ctx.app.inject({
      url: `/api/admin/funnel?channelCode=${code}&from=${today}&to=${today}`,
      headers: { accesstoken: token },
    });
    const clicks = body<{ steps: { step: string; count: number }[] }>(funnel).data.steps.find(
      (s) => s.step === 'click',
    );
    expect(clicks?.count).toBe(2);
    const rows = await rowsOf(code);
    expect(rows.filter((r) => r.fingerprintHash !== null)).toHaveLength(2);
    expect(rows.filter((r) => r.flagged)).toHaveLength(1);
  });

  it('when Redis loses the day, stored fingerprints are not counted again and the day is copied back', async () => {
    const code = 'demo-skin18';
    const fp = `lost-${uniq()}`;
    expect(await click(ctx.app, code, fp)).toEqual({ counted: true, flagged: false });
    await ctx.app.services.channels.settleClicks();
    // Redis restarts empty (or is flushed): every key of the day is gone, the marker too.
    const keys = await redis.keys(dayPattern());
    expect(keys.length).toBeGreaterThan(1);
    await redis.del(...keys);

    // B never saw this visitor: Redis cannot tell, so the table decides — not counted again.
    expect(await click(b, code, fp)).toEqual({ counted: false, flagged: false });
    // A new visitor meanwhile is counted (by the table, or by Redis once the copy is done).
    const fresh = `${fp}-new`;
    expect(await click(b, code, fresh)).toEqual({ counted: true, flagged: false });
    await b.services.channels.settleClicks();
    expect((await rowsOf(code)).filter((r) => r.fingerprintHash !== null)).toHaveLength(2);

    // One instance copies the day back from the database; Redis decides again.
    await vi.waitFor(async () => expect(await redis.exists(markerKey())).toBe(1), {
      timeout: 15_000,
      interval: 50,
    });
    const c = await instance();
    try {
      await c.ready();
      // A third instance, which remembers nothing: both stored visitors are known to Redis.
      expect(await click(c, code, fp)).toEqual({ counted: false, flagged: false });
      expect(await click(c, code, fresh)).toEqual({ counted: false, flagged: false });
      expect(await click(c, code, `${fp}-third`)).toEqual({ counted: true, flagged: false });
    } finally {
      await c.close();
    }
    // Closing wrote what C answered.
    expect((await rowsOf(code)).filter((r) => r.fingerprintHash !== null)).toHaveLength(3);
  });

  it('an instance that cannot reach Redis counts in the database and tells Redis once it is back', async () => {
    const day = shanghaiDate();
    const prefix = `lm:${ctx.shared.limiterPrefix}`;
    const code = 'demo-skin19';
    const hash = `gap-${uniq()}`;
    // This instance's Redis connection goes down (no offline queue, as the app's: commands fail at once).
    const away = new Redis(REDIS_URL!, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    await new Promise((resolve) => away.once('ready', resolve));
    away.disconnect();
    const repo = new ChannelRepository(ctx.app.database.db);
    const ledger = new RedisClickLedger(away, prefix, { storedKeys: (d) => repo.countedKeys(d) });
    const recorder = new ClickRecorder(repo);
    recorder.useLedger(ledger);
    try {
      const row = {
        adChannelCode: code,
        fingerprintHash: hash,
        day,
        abTestType: null,
        ip: '10.0.0.1',
        at: new Date(),
      };
      // Counted by the table (the row is written before the answer).
      expect(await recorder.report(row)).toBe(true);
      const stored = await ctx.app.database.db
        .select()
        .from(channelClicks)
        .where(and(eq(channelClicks.adChannelCode, code), eq(channelClicks.fingerprintHash, hash)));
      expect(stored).toHaveLength(1);
      // Redis does not know it yet; once the connection is back, the counted key is written there.
      const set = `${prefix}clicks:{${day}}:ch:${code}`;
      expect(await redis.sismember(set, hash)).toBe(0);
      await away.connect();
      await vi.waitFor(async () => expect(await redis.sismember(set, hash)).toBe(1), {
        timeout: 15_000,
        interval: 50,
      });
      // So another instance, deciding in Redis, does not count that visitor again.
      const other = new RedisClickLedger(redis, prefix, { storedKeys: (d) => repo.countedKeys(d) });
      expect(await other.claim(code, hash, day)).toBe('seen');
    } finally {
      ledger.close();
      recorder.close();
      away.disconnect();
    }
  });

  it("counts the per-IP click limit in the claim's script: the same counter, refused clicks claim nothing", async () => {
    const code = 'demo-skin10';
    const ip = newIp();
    const limitKey = `lm:${ctx.shared.limiterPrefix}rl:${clickLimitKey(ip)}`;
    const refusals = async () => {
      const text = await ctx.app.metrics.registry.metrics();
      const line = text
        .split('\n')
        .find((l) => l.startsWith('lm_rate_limit_refusals_total{limit="click:ip"}'));
      return line ? Number(line.split(' ').pop()) : 0;
    };
    const from = (app: FastifyInstance, fp: string) =>
      app.inject({
        url: `/api/reportAdChannelClick?adChannelCode=${code}&fingerprint=${fp}`,
        remoteAddress: ip,
      });
    // One returning visitor (the limiter's own path) and new visitors (the claim's script), on both
    // instances: one counter in Redis.
    const returning = `cap-${uniq()}-r`;
    expect(body<Answer>(await from(ctx.app, returning)).data.counted).toBe(true);
    for (let i = 1; i < CLICKS_PER_IP_PER_HOUR; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, CLICKS_PER_IP_PER_HOUR - i) }, (_, j) =>
          from(j % 2 ? b : ctx.app, j % 5 === 0 ? returning : `cap-${uniq()}-${i + j}`),
        ),
      );
    }
    expect(Number(await redis.get(limitKey))).toBe(CLICKS_PER_IP_PER_HOUR);
    const before = await refusals();
    const fp = `cap-${uniq()}-over`;
    const refused = await from(b, fp);
    expect(refused.statusCode).toBe(429);
    expect(body(refused).msg).toMatch(/^点击上报过于频繁，请.+后再试$/);
    expect(body<{ retryAfter: number }>(refused).data.retryAfter).toBeGreaterThan(3500);
    // Not counted against the limit, nothing claimed, no row; the limiter's path refuses it too.
    expect(Number(await redis.get(limitKey))).toBe(CLICKS_PER_IP_PER_HOUR);
    const set = `lm:${ctx.shared.limiterPrefix}clicks:{${shanghaiDate()}}:ch:${code}`;
    expect(await redis.sismember(set, blindIndex(ctx.app.services.keys.ring, 'device', fp))).toBe(0);
    // The channel's set of the day expires by itself (two days), renewed by each claim.
    expect(await redis.ttl(set)).toBeGreaterThan(86_400);
    expect((await from(ctx.app, returning)).statusCode).toBe(429);
    expect(await refusals()).toBe(before + 1);
    await b.services.channels.settleClicks();
    await ctx.app.services.channels.settleClicks();
    const hashes = new Set((await rowsOf(code)).map((r) => r.fingerprintHash));
    expect(hashes.has(blindIndex(ctx.app.services.keys.ring, 'device', fp))).toBe(false);
    // Another address is not limited; a visitor refused today is counted once the limit lets it in.
    const other = await ctx.app.inject({
      url: `/api/reportAdChannelClick?adChannelCode=${code}&fingerprint=${fp}`,
      remoteAddress: newIp(),
    });
    expect(body<Answer>(other).data).toEqual({ counted: true, flagged: false });
  });

  it('closing an instance writes the clicks it answered', async () => {
    const code = 'demo-skin20';
    const c = await instance();
    await c.ready();
    const fps = Array.from({ length: 5 }, (_, i) => `close-${uniq()}-${i}`);
    const answers = await Promise.all(fps.map((fp) => click(c, code, fp)));
    expect(answers.every((a) => a.counted)).toBe(true);
    await c.close();
    expect((await rowsOf(code)).filter((r) => r.fingerprintHash !== null)).toHaveLength(5);
  });
});
