/**
 * Issue 17.1 (ADR 022): `/`, `/download`, `/login`, `/getQuota` and `/h5` of an ad link are answered with
 * the channel's page in its skin and its h5Config inlined; everything else keeps the pre-rendered default
 * page. The web build here is a small one written by the test (test/web-build.ts), so the server's part is tested without building the H5 —
 * e2e/channel-pages.e2e.test.ts opens the real build in Chromium. Runs on both backends (with Redis the
 * channel cache is shared, and a second instance serves the edited page at once).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { H5Config } from '@lm/shared/channel';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pageAddressOf, pageChannelOf, pageLinkOf } from '../src/modules/channels/pages.ts';
import { H5_PERMISSIONS_POLICY } from '../src/plugins/external/security.ts';
import { body, createTestApp, newIp, secondInstance, staffLogin, type TestContext } from './helpers.ts';
import { INDEX, renders, webBuild } from './web-build.ts';

let root: string;
let env: Record<string, string>;
let ctx: TestContext;
let app: FastifyInstance;
let operator: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'lm-channel-pages-'));
  env = { WEB_DIST: webBuild(root), ADMIN_DIST: join(root, 'no-admin') };
  ctx = await createTestApp({ env, serveStatic: true });
  app = ctx.app;
  operator = (await staffLogin(app, 'operator', { name: '渠道页测试', password: 'channel pages pw' })).token;
});
afterAll(async () => {
  await ctx?.close();
  rmSync(root, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}, on: FastifyInstance = app) =>
  on.inject({ method: 'GET', url, headers, remoteAddress: newIp() });

/** The inlined channel of a rendered page. */
function inlined(html: string): { adChannelCode: string; config: H5Config; route: unknown } {
  const m = html.match(/<script type="application\/json" id="lm-channel">([\s\S]*?)<\/script>/);
  if (!m?.[1]) throw new Error(`no inlined channel in ${html.slice(0, 200)}`);
  return JSON.parse(m[1]);
}

const htmlAttrs = (html: string) => html.match(/<html [^>]*>/)?.[0] ?? '';

async function h5Config(code: string): Promise<H5Config> {
  const res = await get(`/api/adChannel/h5Config?adChannelCode=${code}`);
  return body<H5Config>(res).data;
}

let seq = 0;
async function createChannel(over: Record<string, unknown> = {}) {
  const adChannelCode = `t-page-${Date.now().toString(36)}-${++seq}`;
  const res = await app.inject({
    method: 'POST',
    url: '/api/admin/channels',
    headers: { accesstoken: operator },
    remoteAddress: newIp(),
    payload: {
      adChannelCode,
      name: '页面测试渠道',
      linkType: 4,
      skin: 8,
      flags: [],
      allowedHosts: [],
      ...over,
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return body<{ id: number; adChannelCode: string }>(res).data;
}

async function editChannel(id: number, over: Record<string, unknown>) {
  const res = await app.inject({
    method: 'PUT',
    url: `/api/admin/channels/${id}`,
    headers: { accesstoken: operator },
    remoteAddress: newIp(),
    payload: { name: '页面测试渠道', linkType: 4, skin: 8, flags: [], allowedHosts: [], ...over },
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** A console call on a channel's route codes (POST adds, PUT edits, DELETE deletes). */
async function routeCodeCall(method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  const res = await app.inject({
    method,
    url,
    headers: { accesstoken: operator },
    remoteAddress: newIp(),
    ...(payload ? { payload } : {}),
  });
  expect(res.statusCode, res.body).toBe(200);
}

describe("a channel's landing and login pages in the first HTML", () => {
  it("answers the channel's page with its configuration inlined, as h5Config answers it", async () => {
    const res = await get('/?adChannelCode=demo-skin8');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    // The same for everybody with this code: a shared cache may keep it 5 s under the key named (ADR 062).
    expect(res.headers['cache-control']).toBe('public, max-age=0, s-maxage=5');
    expect(res.headers['x-shared-key']).toBe('/||demo-skin8');
    // An H5 page: the face and location steps are client-side routes of it (ADR 020).
    expect(res.headers['permissions-policy']).toBe(H5_PERMISSIONS_POLICY);
    const html = res.body;
    expect(html).toContain('<main data-skin="8">');
    expect(htmlAttrs(html)).toContain('data-ssr="/"');
    expect(htmlAttrs(html)).toContain('data-shell="/"');
    expect(htmlAttrs(html)).toContain('data-ssr-path="/"');
    expect(htmlAttrs(html)).toContain('data-ssr-channel="demo-skin8"');
    const config = await h5Config('demo-skin8');
    expect(htmlAttrs(html)).toContain(`style="--app-primary:${config.themeColor}"`);
    expect(html).toContain(`<title>${config.title}</title>`);
    expect(html).toContain(`<meta name="theme-color" content="${config.themeColor}">`);
    expect(inlined(html)).toEqual({ adChannelCode: 'demo-skin8', config, route: null });
  });

  it('renders the login entries in the login shell, for every channel query key', async () => {
    for (const [url, code, path] of [
      ['/login?adChannelCode=demo-skin10', 'demo-skin10', '/login'],
      ['/getQuota?source=demo-skin10', 'demo-skin10', '/getQuota'],
      ['/h5/?apiChannelCode=demo-skin17', 'demo-skin17', '/h5'],
      ['/download?adChannelCode=demo-skin8', 'demo-skin8', '/download'],
    ] as const) {
      const html = (await get(url)).body;
      expect(htmlAttrs(html), url).toContain(`data-ssr-path="${path}"`);
      expect(htmlAttrs(html), url).toContain(`data-ssr="${path === '/download' ? '/' : '/login'}"`);
      expect(html, url).toContain(` ${path}</main>`);
      expect(inlined(html).adChannelCode, url).toBe(code);
    }
  });

  it('sends the encoding asked for, precompressed, and answers 304 to a visitor holding the page', async () => {
    const plain = await get('/?adChannelCode=demo-skin10', { 'accept-encoding': 'identity' });
    const br = await get('/?adChannelCode=demo-skin10', { 'accept-encoding': 'gzip, deflate, br' });
    const gz = await get('/?adChannelCode=demo-skin10', { 'accept-encoding': 'gzip' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(plain.body);
    expect(gunzipSync(gz.rawPayload).toString('utf8')).toBe(plain.body);
    expect(br.headers.vary).toBe('accept-encoding');
    const etag = String(plain.headers.etag);
    expect(br.headers.etag).toBe(etag);
    const again = await get('/?adChannelCode=demo-skin10', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('renders a page once per channel configuration, not per visit (ad clicks and tracking keys alike)', async () => {
    await get('/?adChannelCode=demo');
    const before = renders();
    for (let i = 0; i < 5; i++) {
      expect((await get(`/?adChannelCode=demo&clickid=${i}`)).body).toContain('data-ssr-channel="demo"');
    }
    expect(renders()).toBe(before);
  });

  it("exchanges a route code and inlines the exchange; a route to a plan URL is left to the app's redirect", async () => {
    const html = (await get('/?adRouteCode=r-demo')).body;
    expect(inlined(html)).toMatchObject({
      adChannelCode: 'demo',
      route: { adRouteCode: 'r-demo', adChannelCode: 'demo', planTargetUrl: null },
    });
    // r-plan sends the visitor to a plan target URL: no landing is shown.
    expect((await get('/?adRouteCode=r-plan')).body).toBe(INDEX);
    // A disabled route code is ignored, as the app does: the link's channel code counts.
    const off = (await get('/?adRouteCode=r-off&adChannelCode=demo-skin8')).body;
    expect(inlined(off)).toMatchObject({ adChannelCode: 'demo-skin8', route: null });
    // A route code that resolves wins over a channel code in the same link.
    expect(
      inlined((await get('/login?adRouteCode=r-demo&adChannelCode=demo-skin8')).body).adChannelCode,
    ).toBe('demo');
  });

  it('leaves unknown or closed channels, malformed codes, the preview and phones in the link to the app', async () => {
    for (const url of [
      '/?adChannelCode=no-such-channel',
      '/?adChannelCode=demo-off',
      '/?adChannelCode=%3Cscript%3E',
      '/?adRouteCode=no-such-route',
      '/?adChannelCode=demo-skin8&previewToken=x',
      '/?adChannelCode=demo-skin8&linkExpired=1',
      '/login?adChannelCode=demo-skin8&phone=13800138000',
      '/getQuota?source=demo-skin8&encryptionMobile=abc',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(INDEX);
    }
  });

  it("renders the default configuration's page for a link without a code (ADR 065)", async () => {
    for (const [url, shell] of [
      ['/', '/'],
      ['/download', '/'],
      ['/login', '/login'],
      ['/h5/', '/login'],
      ['/?utm_source=x', '/'],
    ] as const) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain(`data-ssr="${shell}"`);
      expect(res.body, url).toContain('data-ssr-channel=""');
      expect(inlined(res.body), url).toMatchObject({ adChannelCode: '', route: null });
    }
  });

  it('lets a shared cache keep only pages the same for everybody, under the key that selected them (ADR 062)', async () => {
    for (const [url, key] of [
      ['/?adChannelCode=demo-skin8&clickid=1&callback=x', '/||demo-skin8'],
      ['/download/?clickid=2&source=%20demo-skin8', '/download||demo-skin8'],
      ['/h5?apiChannelCode=demo-skin17', '/h5||demo-skin17'],
      ['/login?adRouteCode=r-demo&clickid=3', '/login|r-demo|'],
      ['/getQuota?adRouteCode=r-demo&adChannelCode=demo', '/getQuota|r-demo|demo'],
    ] as const) {
      const res = await get(url);
      expect(res.headers['cache-control'], url).toBe('public, max-age=0, s-maxage=5');
      expect(res.headers['x-shared-key'], url).toBe(key);
      expect(res.headers['set-cookie'], url).toBeUndefined();
    }
    // An A/B channel's page carries the visitor's arm; a failed route code beside a channel code, a route code
    // naming another channel than the link's code, and the app's pages are not for shared caches.
    const ab = await createChannel({
      skinArms: [
        { skin: 8, weight: 50 },
        { skin: 9, weight: 50 },
      ],
    });
    for (const url of [
      `/?adChannelCode=${ab.adChannelCode}`,
      '/?adRouteCode=r-off&adChannelCode=demo-skin8',
      '/login?adRouteCode=r-demo&adChannelCode=demo-skin8',
      '/?adChannelCode=no-such-channel',
      '/login?adChannelCode=demo-skin8&phone=13800138000',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['x-shared-key'], url).toBeUndefined();
    }
    // The default page is the same for everybody too.
    const plain = await get('/?utm_source=x');
    expect(plain.headers['cache-control']).toBe('public, max-age=0, s-maxage=5');
    expect(plain.headers['x-shared-key']).toBe('/||');
    expect(htmlAttrs((await get(`/?adChannelCode=${ab.adChannelCode}`)).body)).toContain('data-ssr="/"');
  });

  it("keeps an operator's route code through a stranger's flood of made-up ones", async () => {
    // Each made-up code is one database read and then kept as unknown; a thousand of them must not push the
    // real codes out, or every visitor of a real ad link pays the read again.
    expect(inlined((await get('/?adRouteCode=r-demo')).body).adChannelCode).toBe('demo');
    const exchange = vi.spyOn(app.services.channels, 'exchange');
    try {
      for (let i = 0; i < 1_100; i++) {
        const res = await get(`/?adRouteCode=made-up-${i}`);
        expect(res.body).toBe(INDEX);
      }
      expect(exchange).toHaveBeenCalledTimes(1_100);
      expect(inlined((await get('/?adRouteCode=r-demo')).body).adChannelCode).toBe('demo');
      expect(exchange.mock.calls.filter(([code]) => code === 'r-demo')).toHaveLength(0);
      // The made-up codes are kept too (the latest thousand): asking again reads nothing.
      await get('/?adRouteCode=made-up-1099');
      expect(exchange).toHaveBeenCalledTimes(1_100);
    } finally {
      exchange.mockRestore();
    }
  });

  it("shows a console edit of the channel at once, and escapes the channel's text", async () => {
    const created = await createChannel({ pageTitle: '初始标题' });
    const url = `/getQuota?adChannelCode=${created.adChannelCode}`;
    expect((await get(url)).body).toContain('<title>初始标题</title>');
    await editChannel(created.id, { pageTitle: '</title><script>alert(1)</script>' });
    const html = (await get(url)).body;
    expect(html).toContain('<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>');
    expect(html).not.toContain('<script>alert(1)');
    // In the inlined JSON nothing can close the script element.
    const data = html.match(/id="lm-channel">([\s\S]*?)<\/script>/)?.[1] ?? '';
    expect(data).not.toMatch(/[<>]/);
    expect(inlined(html).config).toEqual(await h5Config(created.adChannelCode));
    // Closing the channel hands its pages back to the app (which reloads once, spec §3).
    const status = await app.inject({
      method: 'PUT',
      url: `/api/admin/channels/${created.id}/status`,
      headers: { accesstoken: operator },
      remoteAddress: newIp(),
      payload: { channelStatus: 0 },
    });
    expect(status.statusCode, status.body).toBe(200);
    expect((await get(url)).body).toBe(INDEX);
  });

  it("another instance serves the edited page at once (the channel's configuration is shared)", async () => {
    const other = await secondInstance(ctx, { env, serveStatic: true });
    try {
      const created = await createChannel({ pageTitle: '实例一' });
      const url = `/?adChannelCode=${created.adChannelCode}`;
      expect((await get(url, {}, other)).body).toContain('<title>实例一</title>');
      await editChannel(created.id, { pageTitle: '实例二' });
      const html = (await get(url, {}, other)).body;
      // Without Redis each instance caches the configuration for H5_CONFIG_TTL_SECONDS: one instance
      // of the embedded database is the single-instance setup (README "Configuration").
      if (process.env.TEST_REDIS_URL) expect(html).toContain('<title>实例二</title>');
      else expect(html).toMatch(/<title>实例[一二]<\/title>/);
      // A route code closed on the first instance: with Redis the other stops showing its page at once.
      const routeCode = `${created.adChannelCode}-r`;
      const codes = `/api/admin/channels/${created.id}/route-codes`;
      await routeCodeCall('POST', codes, { routeCode });
      expect((await get(`/?adRouteCode=${routeCode}`, {}, other)).body).toMatch(
        process.env.TEST_REDIS_URL ? /<title>实例二<\/title>/ : /<title>实例[一二]<\/title>/,
      );
      await routeCodeCall('PUT', `${codes}/${routeCode}`, { status: 0 });
      const closed = (await get(`/?adRouteCode=${routeCode}`, {}, other)).body;
      if (process.env.TEST_REDIS_URL) expect(closed).toBe(INDEX);
    } finally {
      await other.close();
    }
  });

  it('shows a console edit of a route code at once: added, closed, opened, deleted', async () => {
    const created = await createChannel({ pageTitle: '路由码页' });
    const routeCode = `${created.adChannelCode}-r`;
    const codes = `/api/admin/channels/${created.id}/route-codes`;
    const url = `/?adRouteCode=${routeCode}`;
    // Unknown at first: today's page, and the exchange kept as unknown.
    expect((await get(url)).body).toBe(INDEX);
    await routeCodeCall('POST', codes, { routeCode });
    const html = (await get(url)).body;
    expect(html).toContain('<title>路由码页</title>');
    expect(inlined(html).route).toEqual({
      adRouteCode: routeCode,
      adChannelCode: created.adChannelCode,
      planTargetUrl: null,
    });
    await routeCodeCall('PUT', `${codes}/${routeCode}`, { status: 0 });
    expect((await get(url)).body).toBe(INDEX);
    await routeCodeCall('PUT', `${codes}/${routeCode}`, { status: 1 });
    expect((await get(url)).body).toContain('<title>路由码页</title>');
    await routeCodeCall('DELETE', `${codes}/${routeCode}`);
    expect((await get(url)).body).toBe(INDEX);
  });

  it('a page that fails to render is served as the default page (never a 5xx), and not kept', async () => {
    const created = await createChannel({ pageTitle: 'throw' });
    const res = await get(`/?adChannelCode=${created.adChannelCode}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(INDEX);
    const before = renders();
    await get(`/?adChannelCode=${created.adChannelCode}`);
    expect(renders()).toBe(before + 1);
  });
});

describe('pageChannelOf (which channel a page address names)', () => {
  const keys = ['phone', 'previewToken'];
  const exchange = async (code: string) =>
    ({
      R1: { adChannelCode: 'c1', planTargetUrl: null },
      R2: { adChannelCode: 'c2', planTargetUrl: 'https://partner.example.com/x' },
    })[code] ?? null;
  const of = (q: string) => pageChannelOf(new URLSearchParams(q), keys, exchange);

  it('takes the first non-blank of adChannelCode, source, apiChannelCode', async () => {
    expect(await of('apiChannelCode=c&source=b&adChannelCode=a')).toEqual({ code: 'a', route: null });
    expect(await of('adChannelCode=&source=b')).toEqual({ code: 'b', route: null });
    // No code: the default page.
    expect(await of('clickid=1')).toEqual({ code: '', route: null });
  });

  it('lets a resolving route code win; a failing one falls back; a plan URL is not a page', async () => {
    expect(await of('adRouteCode=R1&adChannelCode=a')).toEqual({
      code: 'c1',
      route: { adRouteCode: 'R1', adChannelCode: 'c1', planTargetUrl: null },
    });
    expect(await of('adRouteCode=R9&adChannelCode=a')).toEqual({ code: 'a', route: null });
    expect(await of('adRouteCode=R2&adChannelCode=a')).toBeNull();
    // A failing route code alone: the app decides (it may fall back to a kept channel).
    expect(await of('adRouteCode=R9')).toBeNull();
  });

  it('leaves links with markup keys or malformed codes to the app', async () => {
    expect(await of('adChannelCode=a&phone=13800138000')).toBeNull();
    expect(await of('adChannelCode=a%20b')).toBeNull();
    expect(await of(`adChannelCode=${'x'.repeat(65)}`)).toBeNull();
  });
});

describe('pageLinkOf and pageAddressOf (what the front keys a page by)', () => {
  const keys = ['phone', 'previewToken'];
  const link = (q: string) => pageLinkOf(new URLSearchParams(q), keys);

  it('names the route code and the picked channel code, nothing else of the link', () => {
    expect(link('adChannelCode=a&clickid=1&callback=x')).toEqual({ routeCode: undefined, code: 'a' });
    expect(link('source=b&clickid=2')).toEqual({ routeCode: undefined, code: 'b' });
    expect(link('adRouteCode=%20R1%20&adChannelCode=a')).toEqual({ routeCode: 'R1', code: 'a' });
    expect(link('adRouteCode=R1')).toEqual({ routeCode: 'R1', code: undefined });
  });

  it('is null for a link that is not rendered whatever its codes are', () => {
    // No code at all names the default page.
    expect(link('clickid=1')).toEqual({ routeCode: undefined, code: undefined });
    expect(link('adChannelCode=&adRouteCode=')).toEqual({ routeCode: undefined, code: undefined });
    expect(link('adChannelCode=a&phone=13800138000')).toBeNull();
    expect(link('adChannelCode=a&source=a%20b')).toBeNull();
  });

  it('takes the path without trailing slashes and the query after the first "?"', () => {
    expect(pageAddressOf('/login/?a=1?b')).toEqual({ path: '/login', search: 'a=1?b' });
    expect(pageAddressOf('//?a=1')).toEqual({ path: '/', search: 'a=1' });
    expect(pageAddressOf('/h5')).toEqual({ path: '/h5', search: '' });
  });
});
