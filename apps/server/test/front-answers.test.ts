import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { H5Config } from '@lm/shared/channel';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { channels } from '../src/db/schema.ts';
import { useListeningTestApp } from './helpers.ts';
import { comparableHeaders, rawHeader, requestLinesOf, sendRaw } from './raw-http.ts';

/**
 * The ad burst's h5Config answered again in front of Fastify (lib/front-answers.ts, ADR 042), through a real
 * listening server (inject() does not go through the server's request listener): the same bytes as the
 * route's own answer, an edit reaching the next request, and everything else left to Fastify.
 */
const { ctx, logLines, port: portOf } = useListeningTestApp();

const send = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
  sendRaw(portOf(), path, headers, method);

const header = rawHeader;
const comparable = comparableHeaders;
const served = () => ctx.app.frontAnswers.served;
const H5 = '/api/adChannel/h5Config';

describe('h5Config in front of Fastify', () => {
  it("gives again, byte for byte, the route's own answer in each encoding", async () => {
    const url = `${H5}?adChannelCode=demo-skin8`;
    const decoders = { br: brotliDecompressSync, gzip: gunzipSync, identity: (b: Buffer) => b };
    for (const [accept, encoding] of [
      [undefined, 'identity'],
      ['gzip, deflate, br', 'br'],
      ['gzip, deflate', 'gzip'],
    ] as const) {
      // A new cached object: the first request is the route's, the second the front's.
      await ctx.app.services.channels.invalidate('demo-skin8');
      const headers: Record<string, string> = accept ? { 'accept-encoding': accept } : {};
      const before = served();
      const routed = await send(url, headers);
      expect(served(), `${encoding}: the route answers first`).toBe(before);
      const front = await send(url, headers);
      expect(served(), `${encoding}: then the front`).toBe(before + 1);

      expect(front.status).toBe(200);
      expect(comparable(front), encoding).toEqual(comparable(routed));
      expect(front.body.equals(routed.body), encoding).toBe(true);
      expect(header(front, 'content-encoding')).toBe(encoding === 'identity' ? undefined : encoding);
      const config = JSON.parse(decoders[encoding](front.body).toString('utf8')) as { data: H5Config };
      expect(config.data.adChannelCode).toBe('demo-skin8');
      expect(config.data.skin).toBe(8);
      // Each answer its own request id.
      expect(header(front, 'x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(header(front, 'x-request-id')).not.toBe(header(routed, 'x-request-id'));
    }
    // Without a code: the default configuration, from the front too.
    await send(H5);
    const before = served();
    const defaults = await send(H5);
    expect(served()).toBe(before + 1);
    expect((JSON.parse(defaults.body.toString('utf8')) as { data: H5Config }).data.adChannelCode).toBe('');
  });

  it('answers an edited channel at once', async () => {
    const db = ctx.app.database.db;
    await db.insert(channels).values({ adChannelCode: 't-front', name: '前置', pageTitle: '旧标题' });
    const url = `${H5}?adChannelCode=t-front`;
    const title = async () =>
      (JSON.parse((await send(url)).body.toString('utf8')) as { data: H5Config }).data.title;
    expect(await title()).toBe('旧标题');
    const before = served();
    expect(await title()).toBe('旧标题');
    expect(served()).toBe(before + 1);

    // What the console's save does: the row, then the cache.
    await db.update(channels).set({ pageTitle: '新标题' }).where(eq(channels.adChannelCode, 't-front'));
    await ctx.app.services.channels.invalidate('t-front');
    expect(await title()).toBe('新标题');
    expect(served(), 'the route answers the edit').toBe(before + 1);
    expect(await title()).toBe('新标题');
    expect(served(), 'and the front the next').toBe(before + 2);

    // Disabled in the console: the route's answer says so (channelStatus 0), and then the front's.
    await db.update(channels).set({ channelStatus: 0 }).where(eq(channels.adChannelCode, 't-front'));
    await ctx.app.services.channels.invalidate('t-front');
    const status = async () =>
      (JSON.parse((await send(url)).body.toString('utf8')) as { data: H5Config }).data.channelStatus;
    expect(await status()).toBe(0);
    expect(await status()).toBe(0);
    expect(served()).toBe(before + 3);
  });

  it('leaves to Fastify what it was not given: other methods, spellings, codes, visitors', async () => {
    const url = `${H5}?adChannelCode=demo`;
    await send(url);
    await send(url);
    const before = served();
    // HEAD: Fastify's own answer (headers only).
    const head = await send(url, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    // Other spellings of the same query: the route validates and answers each.
    for (const other of [`${url}&x=1`, `${H5}?adChannelCode=dem%6F`, `${H5}?adChannelCode=demo#`, `${H5}/`]) {
      const res = await send(other);
      expect(res.status, other).toBeLessThan(500);
    }
    // A refused query still gets Fastify's envelope.
    const bad = await send(`${H5}?adChannelCode=${'x'.repeat(65)}`);
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body.toString('utf8')).msg).toContain('渠道码最长64个字符');
    // An unknown code (the defaults) is never kept: made-up codes cannot fill the front.
    const size = ctx.app.frontAnswers.size;
    for (let i = 0; i < 3; i++) await send(`${H5}?adChannelCode=nope-${i}`);
    await send(`${H5}?adChannelCode=nope-0`);
    expect(ctx.app.frontAnswers.size).toBe(size);
    // An A/B channel's answer depends on the visitor: always the route's.
    await ctx.app.database.db.insert(channels).values({
      adChannelCode: 't-front-ab',
      name: 'AB前置',
      flags: 'skin17',
      skinArms: [
        { skin: 8, weight: 50 },
        { skin: 9, weight: 50 },
      ],
    });
    for (let i = 0; i < 2; i++) {
      const ab = await send(`${H5}?adChannelCode=t-front-ab`, {
        platform_param: JSON.stringify({ channel: 0, fingerprint: `front-ab-${i}` }),
      });
      expect(header(ab, 'cache-control')).toBe('private, max-age=30');
    }
    expect(served()).toBe(before);
  });

  it("keeps the app's request id, client address, request lines and histogram", async () => {
    const url = `${H5}?adChannelCode=demo-skin10`;
    await send(url);
    const before = served();
    const histogram = async () => {
      const text = await ctx.app.metrics.registry.metrics();
      const line = text
        .split('\n')
        .find(
          (l) =>
            /_count\{/.test(l) && l.includes('route="/api/adChannel/h5Config"') && l.includes('status="200"'),
        );
      return Number(line?.split(' ').at(-1) ?? 0);
    };
    const counted = await histogram();
    const frontTotal = async () =>
      Number(
        (await ctx.app.metrics.registry.metrics())
          .split('\n')
          .find((l) => l.startsWith('lm_front_answers_total '))
          ?.split(' ')[1],
      );
    expect(await frontTotal()).toBe(before);
    logLines.length = 0;
    // From the trusted proxy: its request id and the visitor's address are believed.
    const res = await send(url, { 'x-request-id': 'edge-req-0001', 'x-forwarded-for': '203.0.113.9' });
    expect(served()).toBe(before + 1);
    expect(header(res, 'x-request-id')).toBe('edge-req-0001');
    expect(await histogram()).toBe(counted + 1);
    expect(await frontTotal()).toBe(before + 1);
    const lines = logLines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toEqual(requestLinesOf('edge-req-0001', url, '203.0.113.9'));
    expect(typeof lines[1]!.responseTime).toBe('number');

    // Quieter than info: no line.
    ctx.app.log.level = 'warn';
    try {
      logLines.length = 0;
      await send(url);
      expect(served()).toBe(before + 2);
      expect(logLines).toEqual([]);
    } finally {
      ctx.app.log.level = 'info';
    }
  });

  it('sends a draining instance’s requests to Fastify, which closes the connection', async () => {
    const url = `${H5}?adChannelCode=demo-skin17`;
    await send(url);
    const before = served();
    ctx.app.draining = true;
    try {
      const res = await send(url);
      expect(res.status).toBe(200);
      expect(header(res, 'connection')).toBe('close');
      expect(served()).toBe(before);
    } finally {
      ctx.app.draining = false;
    }
    await send(url);
    expect(served()).toBe(before + 1);
  });
});
