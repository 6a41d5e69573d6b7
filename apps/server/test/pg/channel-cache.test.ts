import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { channels } from '../../src/db/schema.ts';
import { routeMarker } from '../api-contract.ts';
import { BACKEND, body, createTestApp, REDIS_URL, type TestContext, testConfig } from '../helpers.ts';

/**
 * Redis only (npm run test:pg sets TEST_REDIS_URL): each instance keeps an in-process copy (L1) of a
 * channel's configuration in front of Redis; an invalidation on one instance reaches every instance's L1
 * through Redis pub/sub (issue 17.3).
 */
// An L1 that outlives a slow test run: what changes it here is the invalidation, never its TTL.
const L1_TTL_MS = 30_000;
let ctx: TestContext;
let b: FastifyInstance;
beforeAll(async () => {
  if (!REDIS_URL) throw new Error('TEST_REDIS_URL is required for the L1 invalidation test');
  const env = { CHANNEL_L1_TTL_MS: String(L1_TTL_MS) };
  ctx = await createTestApp({ env });
  b = await buildApp({
    config: testConfig(env),
    database: ctx.shared.database,
    ...(ctx.shared.schemaName ? { schemaName: ctx.shared.schemaName } : {}),
    limiterPrefix: ctx.shared.limiterPrefix,
    logger: false,
    plugins: [routeMarker],
    serveStatic: false,
  });
});
afterAll(async () => {
  await b?.close();
  await ctx?.close();
});

const title = async (app: FastifyInstance, code: string) =>
  body<{ title: string | null }>(await app.inject({ url: `/api/adChannel/h5Config?adChannelCode=${code}` }))
    .data.title;

/** Until the subscription of `app` is live (it connects after the app is ready). */
async function subscribed(app: FastifyInstance, code: string) {
  const deadline = Date.now() + 10_000;
  await title(app, code);
  while (app.services.channels.peek(code) === undefined) {
    if (Date.now() > deadline) throw new Error('the L1 never came on (no pub/sub subscription)');
    await new Promise((r) => setTimeout(r, 20));
    await title(app, code);
  }
}

describe(`h5Config L1 on two instances and one Redis (${BACKEND})`, () => {
  it("an invalidation on A drops B's in-process copy at once (pub/sub), not after its TTL", async () => {
    const code = `t-l1-${Date.now().toString(36)}`;
    const db = ctx.app.database.db;
    await db.insert(channels).values({ adChannelCode: code, name: 'L1测试', pageTitle: '旧标题' });
    await subscribed(ctx.app, code);
    await subscribed(b, code);
    // Both hold the old value in memory: a change in the database alone is not seen …
    await db.update(channels).set({ pageTitle: '新标题' }).where(eq(channels.adChannelCode, code));
    // … not even with the Redis copy gone (the L1 answers without Redis).
    await ctx.app.redis!.del(`${ctx.app.config.REDIS_KEY_PREFIX}${ctx.shared.limiterPrefix}h5config:${code}`);
    expect(await title(ctx.app, code)).toBe('旧标题');
    expect(await title(b, code)).toBe('旧标题');

    const started = Date.now();
    await ctx.app.services.channels.invalidate(code);
    // A: at once (its own copy is dropped before invalidate returns).
    expect(await title(ctx.app, code)).toBe('新标题');
    // B: as soon as the message arrives, far sooner than the L1's TTL.
    while (b.services.channels.peek(code) !== undefined && Date.now() - started < L1_TTL_MS) {
      await new Promise((r) => setTimeout(r, 5));
    }
    // Far sooner than the TTL (a generous bound: the test machine may be busy).
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await title(b, code)).toBe('新标题');
  });

  it('a console edit on B shows on A at once', async () => {
    const code = `t-l1e-${Date.now().toString(36)}`;
    await ctx.app.database.db
      .insert(channels)
      .values({ adChannelCode: code, name: 'L1测试', pageTitle: '甲' });
    await subscribed(ctx.app, code);
    await ctx.app.database.db
      .update(channels)
      .set({ pageTitle: '乙' })
      .where(eq(channels.adChannelCode, code));
    await b.services.channels.invalidate(code);
    const deadline = Date.now() + 5_000;
    while (ctx.app.services.channels.peek(code) !== undefined && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(await title(ctx.app, code)).toBe('乙');
  });
});
