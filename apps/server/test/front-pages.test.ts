/**
 * A channel's landing and login pages given again in front of Fastify (ADR 043), through a real listening
 * server (inject() does not go through the server's request listener): the same bytes as the page route's own
 * answer for every address that names the same codes — an ad link's per-click parameters (clickid, callback …)
 * do not change the page, so they do not change what the front answers —, a console edit reaching the next
 * request on every instance, and everything the route answers otherwise left to it. The web build is the small
 * one of test/web-build.ts.
 */
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channels, routeCodes } from '../src/db/schema.ts';
import { secondInstance, useTestApp } from './helpers.ts';
import { comparableHeaders, type Raw, rawHeader, requestLinesOf, sendRaw } from './raw-http.ts';
import { INDEX, LOGIN, renders, webBuild } from './web-build.ts';

const root = mkdtempSync(join(tmpdir(), 'lm-front-pages-'));
const env = { WEB_DIST: webBuild(root), ADMIN_DIST: join(root, 'no-admin'), TRUST_PROXY: '127.0.0.1' };
const logLines: string[] = [];
const ctx = useTestApp(() => ({
  env: { ...env, LOG_LEVEL: 'info' },
  serveStatic: true,
  logStream: { write: (line: string) => void logLines.push(line) },
}));
let port = 0;

beforeAll(async () => {
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = (ctx.app.server.address() as AddressInfo).port;
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const send = (path: string, headers: Record<string, string> = {}, method = 'GET', to = port) =>
  sendRaw(to, path, headers, method);

const header = rawHeader;
const comparable = comparableHeaders;
const served = () => ctx.app.frontAnswers.served;
const text = (raw: Raw) => raw.body.toString('utf8');
const title = (raw: Raw) => text(raw).match(/<title>(.*?)<\/title>/)?.[1];

let seq = 0;
/** A channel of its own for a test (skin 8), straight into the database. */
async function channel(over: Partial<typeof channels.$inferInsert> = {}): Promise<string> {
  const adChannelCode = `t-fp-${process.pid}-${++seq}`;
  await ctx.app.database.db
    .insert(channels)
    .values({ adChannelCode, name: '前置页', flags: 'skin8', ...over });
  return adChannelCode;
}

/** What the console's save does: the row, then the cache (every instance's, with Redis). */
async function edit(code: string, set: Partial<typeof channels.$inferInsert>) {
  await ctx.app.database.db.update(channels).set(set).where(eq(channels.adChannelCode, code));
  await ctx.app.services.channels.invalidate(code);
}

describe('channel pages in front of Fastify', () => {
  it("gives every ad link of the channel the route's own page, byte for byte, in each encoding", async () => {
    const decoders = { br: brotliDecompressSync, gzip: gunzipSync, identity: (b: Buffer) => b };
    let click = 0;
    for (const [accept, encoding] of [
      [undefined, 'identity'],
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip, deflate', 'gzip'],
    ] as const) {
      const code = await channel({ pageTitle: `首屏-${encoding}` });
      const headers: Record<string, string> = accept ? { 'accept-encoding': accept } : {};
      const before = served();
      const routed = await send(`/?adChannelCode=${code}&clickid=${++click}`, headers);
      expect(served(), `${encoding}: the route answers first`).toBe(before);
      // Another visitor from the same ad: another click id, a callback, the codes in another order.
      const front = await send(
        `/?clickid=${++click}&callback=https%3A%2F%2Fad.example%2Fcb&adChannelCode=${code}`,
        headers,
      );
      expect(served(), `${encoding}: then the front`).toBe(before + 1);

      expect(front.status).toBe(200);
      expect(comparable(front), encoding).toEqual(comparable(routed));
      expect(front.body.equals(routed.body), encoding).toBe(true);
      expect(header(front, 'content-encoding')).toBe(encoding === 'identity' ? undefined : encoding);
      const html = decoders[encoding](front.body).toString('utf8');
      expect(html).toContain(`data-ssr-channel="${code}"`);
      expect(html).toContain('<main data-skin="8">');
      expect(html).toContain(`<title>首屏-${encoding}</title>`);
      expect(header(front, 'x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(header(front, 'x-request-id')).not.toBe(header(routed, 'x-request-id'));
    }
  });

  it('keeps one page per path and code: the login entries, a trailing slash, another key naming the channel', async () => {
    const code = await channel();
    const rendered = renders();
    await send(`/login?adChannelCode=${code}&clickid=a`);
    await send(`/getQuota?adChannelCode=${code}&clickid=a`);
    const before = served();
    for (const url of [
      `/login?adChannelCode=${code}&clickid=b`,
      `/login/?adChannelCode=${code}&clickid=c`,
      `/getQuota?adChannelCode=${code}&callback=x`,
    ]) {
      const res = await send(url);
      expect(res.status, url).toBe(200);
      expect(text(res), url).toContain(`data-ssr-channel="${code}"`);
      expect(text(res), url).toContain('data-ssr="/login"');
    }
    expect(served()).toBe(before + 3);
    // `source` names the same channel: the same page, from the front at once.
    expect(text(await send(`/login?source=${code}&clickid=d`))).toContain(`data-ssr-channel="${code}"`);
    expect(served()).toBe(before + 4);
    // Each page rendered once.
    expect(renders()).toBe(rendered + 2);
  });

  it("leaves to the route what is not the same page: markup keys, malformed keys, other codes, HEAD, a visitor's copy", async () => {
    const code = await channel();
    await send(`/?adChannelCode=${code}`);
    const before = served();
    for (const [url, page] of [
      // A phone in the link changes the markup: the default page, and the app prefills it.
      [`/login?adChannelCode=${code}&phone=13800138000`, LOGIN],
      [`/?adChannelCode=${code}&linkExpired=1`, INDEX],
      // A malformed value of another channel key: the app shows what it makes of the link.
      [`/?adChannelCode=${code}&source=a%20b`, INDEX],
      // Made-up codes and route codes: the default page, never kept.
      ['/?adChannelCode=t-fp-nope', INDEX],
      ['/?adRouteCode=no-such-route&clickid=1', INDEX],
      ['/?adRouteCode=r-plan', INDEX],
    ] as const) {
      for (let i = 0; i < 2; i++) {
        const res = await send(url);
        expect(res.status, url).toBe(200);
        expect(text(res), url).toBe(page);
      }
    }
    expect(served()).toBe(before);
    // HEAD: Fastify's own answer (headers only).
    const head = await send(`/?adChannelCode=${code}&clickid=h`, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    // A visitor holding the page asks with its etag: the route's 304.
    const page = await send(`/?adChannelCode=${code}&clickid=1`);
    expect(served()).toBe(before + 1);
    const again = await send(`/?adChannelCode=${code}&clickid=2`, { 'if-none-match': header(page, 'etag')! });
    expect(again.status).toBe(304);
    expect(served()).toBe(before + 1);
  });

  it('keeps a route code that resolves, not one that fails nor one beside another channel code', async () => {
    await send('/?adRouteCode=r-demo&clickid=1');
    const before = served();
    const res = await send('/?adRouteCode=r-demo&clickid=2');
    expect(served()).toBe(before + 1);
    expect(text(res)).toContain(
      '"route":{"adRouteCode":"r-demo","adChannelCode":"demo","planTargetUrl":null}',
    );
    // A disabled route code is ignored in favour of the link's channel code: the page is the channel's, but
    // such a link is not kept (its route code could be anything).
    for (let i = 0; i < 2; i++) {
      expect(text(await send(`/?adRouteCode=r-off&adChannelCode=demo-skin8&clickid=${i}`))).toContain(
        'data-ssr-channel="demo-skin8"',
      );
    }
    // A route code that resolves wins over a channel code beside it: right page, not kept either.
    for (let i = 0; i < 2; i++) {
      expect(text(await send(`/?adRouteCode=r-demo&adChannelCode=demo-skin10&clickid=${i}`))).toContain(
        'data-ssr-channel="demo"',
      );
    }
    expect(served()).toBe(before + 1);
  });

  it('answers a console edit at once, and a closed channel with the default page', async () => {
    const code = await channel({ pageTitle: '旧标题' });
    const url = (i: number) => `/?adChannelCode=${code}&clickid=${i}`;
    expect(title(await send(url(1)))).toBe('旧标题');
    const before = served();
    expect(title(await send(url(2)))).toBe('旧标题');
    expect(served()).toBe(before + 1);

    await edit(code, { pageTitle: '新标题' });
    expect(title(await send(url(3)))).toBe('新标题');
    expect(served(), 'the route answers the edit').toBe(before + 1);
    expect(title(await send(url(4)))).toBe('新标题');
    expect(served(), 'and the front the next').toBe(before + 2);

    await edit(code, { channelStatus: 0 });
    expect(text(await send(url(5)))).toBe(INDEX);
    expect(text(await send(url(6)))).toBe(INDEX);
    expect(served()).toBe(before + 2);
  });

  it("answers a route code's console edit at once (what the console's save does: the row, then its channel)", async () => {
    const code = await channel({ pageTitle: '路由码前置' });
    const routeCode = `${code}-r`;
    const url = (i: number) => `/?adRouteCode=${routeCode}&clickid=${i}`;
    const setRoute = async (status: number) => {
      await ctx.app.database.db.update(routeCodes).set({ status }).where(eq(routeCodes.routeCode, routeCode));
      await ctx.app.services.channels.invalidate(code);
    };
    await ctx.app.database.db.insert(routeCodes).values({ routeCode, adChannelCode: code, status: 1 });
    expect(title(await send(url(1)))).toBe('路由码前置');
    const before = served();
    expect(title(await send(url(2)))).toBe('路由码前置');
    expect(served(), 'the front keeps the route code page').toBe(before + 1);

    await setRoute(0);
    expect(text(await send(url(3)))).toBe(INDEX);
    expect(text(await send(url(4)))).toBe(INDEX);
    await setRoute(1);
    expect(title(await send(url(5)))).toBe('路由码前置');
    expect(title(await send(url(6)))).toBe('路由码前置');
    expect(served(), 'and again once it is open').toBe(before + 2);
  });

  it("never keeps an A/B channel's page (its arm follows the visitor)", async () => {
    const code = await channel({
      flags: 'skin17',
      skinArms: [
        { skin: 8, weight: 50 },
        { skin: 9, weight: 50 },
      ],
    });
    const before = served();
    for (let i = 0; i < 4; i++) {
      const res = await send(`/?adChannelCode=${code}`, { 'x-forwarded-for': `198.51.100.${i}` });
      expect(text(res)).toMatch(/<main data-skin="[89]">/);
    }
    expect(served()).toBe(before);
  });

  it('serves a new build once its templates change (no page naming the old files)', async () => {
    const code = await channel();
    await send(`/?adChannelCode=${code}`);
    await send(`/?adChannelCode=${code}`);
    const file = join(root, 'dist-ssr', 'channel-landing.html');
    const { readFileSync } = await import('node:fs');
    const old = readFileSync(file, 'utf8');
    try {
      writeFileSync(file, old.replace('<div id="root">', '<div id="root" data-build="2">'));
      // The templates are checked for a rebuild at most once a second (lib/web-ssr.ts).
      utimesSync(file, new Date(), new Date(Date.now() + 5000));
      const deadline = Date.now() + 15_000;
      let html = '';
      while (Date.now() < deadline && !html.includes('data-build="2"')) {
        html = text(await send(`/?adChannelCode=${code}&clickid=${Date.now()}`));
        if (!html.includes('data-build="2"')) await new Promise((r) => setTimeout(r, 100));
      }
      expect(html).toContain('data-build="2"');
      // And the front keeps the new one.
      const before = served();
      expect(text(await send(`/?adChannelCode=${code}&clickid=new`))).toContain('data-build="2"');
      expect(served()).toBe(before + 1);
    } finally {
      writeFileSync(file, old);
      utimesSync(file, new Date(), new Date(Date.now() + 10_000));
    }
  });

  it("keeps the app's request id, client address, request lines and the unmatched route's histogram", async () => {
    const code = await channel();
    await send(`/login?adChannelCode=${code}`);
    const histogram = async () => {
      const line = (await ctx.app.metrics.registry.metrics())
        .split('\n')
        .find((l) => /_count\{/.test(l) && l.includes('route="unmatched"') && l.includes('status="200"'));
      return Number(line?.split(' ').at(-1) ?? 0);
    };
    const counted = await histogram();
    const before = served();
    logLines.length = 0;
    const url = `/login?adChannelCode=${code}&clickid=edge`;
    const res = await send(url, { 'x-request-id': 'edge-page-0001', 'x-forwarded-for': '203.0.113.7' });
    expect(served()).toBe(before + 1);
    expect(header(res, 'x-request-id')).toBe('edge-page-0001');
    expect(await histogram()).toBe(counted + 1);
    const lines = logLines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toEqual(requestLinesOf('edge-page-0001', url, '203.0.113.7'));
  });

  it('another instance drops its page when the channel is edited on the first (with Redis at once)', async () => {
    const other = await secondInstance(ctx, { env, serveStatic: true });
    try {
      await other.listen({ port: 0, host: '127.0.0.1' });
      const otherPort = (other.server.address() as AddressInfo).port;
      const code = await channel({ pageTitle: '实例一' });
      const url = (i: number) => `/?adChannelCode=${code}&clickid=${i}`;
      expect(title(await send(url(1), {}, 'GET', otherPort))).toBe('实例一');
      const before = other.frontAnswers.served;
      expect(title(await send(url(2), {}, 'GET', otherPort))).toBe('实例一');
      expect(other.frontAnswers.served).toBe(before + 1);
      await edit(code, { pageTitle: '实例二' });
      const after = title(await send(url(3), {}, 'GET', otherPort));
      // Without Redis each instance keeps a configuration for H5_CONFIG_TTL_SECONDS (README "Configuration").
      if (process.env.TEST_REDIS_URL) expect(after).toBe('实例二');
      else expect(after).toMatch(/^实例[一二]$/);

      // A route code closed on the first instance: with Redis the other's front stops giving its page at once.
      const routeCode = `${code}-r`;
      const routed = (i: number) => `/?adRouteCode=${routeCode}&clickid=${i}`;
      await ctx.app.database.db.insert(routeCodes).values({ routeCode, adChannelCode: code, status: 1 });
      await ctx.app.services.channels.invalidate(code);
      expect(title(await send(routed(1), {}, 'GET', otherPort))).toMatch(/^实例[一二]$/);
      const kept = other.frontAnswers.served;
      await send(routed(2), {}, 'GET', otherPort);
      expect(other.frontAnswers.served, 'the other front keeps the route code page').toBe(kept + 1);
      await ctx.app.database.db
        .update(routeCodes)
        .set({ status: 0 })
        .where(eq(routeCodes.routeCode, routeCode));
      await ctx.app.services.channels.invalidate(code);
      const closed = text(await send(routed(3), {}, 'GET', otherPort));
      if (process.env.TEST_REDIS_URL) expect(closed).toBe(INDEX);
    } finally {
      await other.close();
    }
  });

  it('stops answering when the app closes (draining goes to Fastify, which closes the connection)', async () => {
    const code = await channel();
    await send(`/?adChannelCode=${code}`);
    const before = served();
    ctx.app.draining = true;
    try {
      const res = await send(`/?adChannelCode=${code}&clickid=drain`);
      expect(res.status).toBe(200);
      expect(header(res, 'connection')).toBe('close');
      expect(served()).toBe(before);
    } finally {
      ctx.app.draining = false;
    }
  });
});
