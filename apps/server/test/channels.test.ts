import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { AGREEMENT_PAGES, FLOW_ROUTES, type H5Config, THEMES } from '@lm/shared/channel';
import { shanghaiDate } from '@lm/shared/time';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { channelClicks, channels, routeCodes } from '../src/db/schema.ts';
import { DEFAULT_H5_CONFIG } from '../src/modules/channels/fixtures.ts';
import { DEMO_CHANNELS, DEMO_ROUTE_CODES, seedDemoChannels } from '../src/modules/channels/seed.ts';
import { CLICKS_PER_IP_PER_HOUR } from '../src/modules/channels/service.ts';
import { BACKEND, body, newIp, useTestApp } from './helpers.ts';

const ctx = useTestApp();
let app: FastifyInstance;
beforeAll(() => {
  app = ctx.app;
});

const get = (url: string, headers: Record<string, string> = {}, ip = newIp()) =>
  app.inject({ method: 'GET', url, headers, remoteAddress: ip });

const H5_CONFIG_KEYS = [
  'adChannelCode',
  'agreements',
  'allowedHosts',
  'channelStatus',
  'excludeCityCodes',
  'flags',
  'flow',
  'flowRoutes',
  'footer',
  'icon',
  'linkType',
  'name',
  'needsLocation',
  'planTargetUrl',
  'skin',
  'theme',
  'themeColor',
  'title',
  'trackReport',
].sort();

async function h5Config(query = '') {
  const res = await get(`/api/adChannel/h5Config${query}`);
  expect(res.statusCode).toBe(200);
  return { res, config: body<H5Config>(res).data };
}

describe(`demo seed (${BACKEND})`, () => {
  const expected = [
    'demo',
    'demo-fenqile',
    'demo-formprocess3',
    'demo-formprocess4',
    'demo-haier',
    'demo-location',
    'demo-link1',
    'demo-crm',
    'demo-off',
    ...Array.from({ length: 16 }, (_, i) => `demo-skin${i + 8}`),
  ];

  it('has every listed channel and route code', async () => {
    const rows = await app.database.db.select().from(channels);
    const codes = rows.map((r) => r.adChannelCode);
    for (const code of expected) expect(codes).toContain(code);
    for (const r of rows.filter((r) => r.adChannelCode.startsWith('demo'))) {
      expect(r.name).toMatch(/[\u4e00-\u9fa5]/);
      expect(r.pageTitle).toBeTruthy();
      // A brand a visitor would believe (issue 16.10), not a placeholder like "借款皮肤8".
      expect(r.pageTitle).not.toMatch(/皮肤|skin|\d/i);
      expect(r.allowedHosts.length).toBeGreaterThan(0);
      // Every demo channel names one of the demo operators (ADR 057).
      expect(r.operatorId).not.toBeNull();
    }
    const skinTitles = rows.filter((r) => r.adChannelCode.startsWith('demo-skin')).map((r) => r.pageTitle);
    expect(new Set(skinTitles).size).toBe(skinTitles.length);
    const routes = (await app.database.db.select().from(routeCodes)).map((r) => r.routeCode);
    expect(routes).toEqual(expect.arrayContaining(['r-demo', 'r-fenqile', 'r-plan', 'r-off']));
    expect(DEMO_CHANNELS.map((c) => c.adChannelCode).sort()).toEqual([...expected].sort());
    expect(DEMO_ROUTE_CODES.every((r) => r.note.length > 0)).toBe(true);
  });

  it('gives the skin channels their skin and a spread of colours', async () => {
    const themes = new Set<string>();
    for (let n = 8; n <= 23; n++) {
      const { config } = await h5Config(`?adChannelCode=demo-skin${n}`);
      expect(config.skin).toBe(n);
      themes.add(config.theme);
    }
    expect([...themes].sort()).toEqual(Object.keys(THEMES).sort());
  });

  it('re-seeding updates the demo rows and adds none', async () => {
    const db = app.database.db;
    const before = await db.select({ n: sql<number>`count(*)::int` }).from(channels);
    await db
      .update(channels)
      .set({ name: '被改过', linkType: 9 })
      .where(eq(channels.adChannelCode, 'demo-crm'));
    await db.update(routeCodes).set({ status: 1 }).where(eq(routeCodes.routeCode, 'r-off'));
    await seedDemoChannels(db);
    const after = await db.select({ n: sql<number>`count(*)::int` }).from(channels);
    expect(after[0]!.n).toBe(before[0]!.n);
    const [crm] = await db.select().from(channels).where(eq(channels.adChannelCode, 'demo-crm'));
    expect(crm).toMatchObject({ name: '演示渠道（CRM征信流程）', linkType: 3 });
    const [off] = await db.select().from(routeCodes).where(eq(routeCodes.routeCode, 'r-off'));
    expect(off!.status).toBe(0);
  });
});

describe(`GET /api/getAdChannel (${BACKEND})`, () => {
  it('answers the channel detail', async () => {
    const res = await get('/api/getAdChannel?adChannelCode=demo-location');
    expect(res.statusCode).toBe(200);
    expect(body(res)).toEqual({
      code: 200,
      msg: 'success',
      data: {
        adChannelCode: 'demo-location',
        channelStatus: 1,
        linkType: 2,
        excludeCityCodes: ['110100', '310100', '440300'],
        planTargetUrl: null,
      },
    });
    const link1 = body<{ linkType: number; planTargetUrl: string }>(
      await get('/api/getAdChannel?adChannelCode=demo-link1'),
    ).data;
    expect(link1).toMatchObject({ linkType: 1, planTargetUrl: 'https://partner.example.com/apply' });
    const demo = body<{ linkType: number; channelStatus: number }>(
      await get('/api/getAdChannel?adChannelCode=demo'),
    ).data;
    expect(demo).toMatchObject({ linkType: 4, channelStatus: 1 });
    const off = body<{ channelStatus: number }>(await get('/api/getAdChannel?adChannelCode=demo-off')).data;
    expect(off.channelStatus).toBe(0);
  });

  it('answers 404 渠道不存在 for an unknown code', async () => {
    const res = await get('/api/getAdChannel?adChannelCode=no-such-channel');
    expect(res.statusCode).toBe(404);
    expect(body(res)).toMatchObject({ code: 404, msg: '渠道不存在' });
  });

  it('refuses bad input with a Chinese message naming the field', async () => {
    const cases: [string, string][] = [
      ['', '渠道码'],
      ['?adChannelCode=', '渠道码不能为空'],
      [`?adChannelCode=${'a'.repeat(65)}`, '渠道码最长64个字符'],
      ['?adChannelCode=%E6%B8%A0%E9%81%93', '渠道码只能包含'],
      ['?adChannelCode=a&adChannelCode=b', '渠道码必须是文本'],
    ];
    for (const [qs, msg] of cases) {
      const res = await get(`/api/getAdChannel${qs}`);
      expect(res.statusCode, qs).toBe(400);
      expect(body(res).code).toBe(400);
      expect(body(res).msg, qs).toContain(msg);
    }
  });

  it('never answers a plan URL outside the allowed hosts', async () => {
    const db = app.database.db;
    await db.insert(channels).values([
      {
        adChannelCode: 't-evil',
        name: '测试',
        planTargetUrl: 'https://evil.example.net/',
        allowedHosts: [],
      },
    ]);
    await db
      .insert(routeCodes)
      .values({ routeCode: 't-evil-route', adChannelCode: 't-evil', planTargetUrl: '//evil.example.net/x' });
    const detail = body<{ planTargetUrl: string | null }>(
      await get('/api/getAdChannel?adChannelCode=t-evil'),
    );
    expect(detail.data.planTargetUrl).toBeNull();
    const ex = body<{ planTargetUrl: string | null }>(
      await get('/api/adChannel/exchange/adChannelCode?adRouteCode=t-evil-route'),
    );
    expect(ex.data).toEqual({ adChannelCode: 't-evil', planTargetUrl: null });
  });
});

describe(`GET /api/adChannel/plan/adChannelCode (${BACKEND})`, () => {
  it("answers the channel's plan target URL", async () => {
    const link1 = await get('/api/adChannel/plan/adChannelCode?adChannelCode=demo-link1');
    expect(body(link1)).toMatchObject({
      code: 200,
      data: { adChannelCode: 'demo-link1', planTargetUrl: 'https://partner.example.com/apply' },
    });
    const demo = await get('/api/adChannel/plan/adChannelCode?adChannelCode=demo');
    expect(body(demo).data).toEqual({ adChannelCode: 'demo', planTargetUrl: null });
  });
  it('404 for unknown, 400 for bad input', async () => {
    const res = await get('/api/adChannel/plan/adChannelCode?adChannelCode=nope');
    expect(res.statusCode).toBe(404);
    expect(body(res).msg).toBe('渠道不存在');
    const bad = await get('/api/adChannel/plan/adChannelCode');
    expect(bad.statusCode).toBe(400);
    expect(body(bad).msg).toContain('adChannelCode');
  });
});

describe(`GET /api/adChannel/exchange/adChannelCode (${BACKEND})`, () => {
  const url = (code: string) =>
    `/api/adChannel/exchange/adChannelCode?adRouteCode=${encodeURIComponent(code)}`;
  it('exchanges each demo route code', async () => {
    const expected: Record<string, { adChannelCode: string; planTargetUrl: string | null }> = {
      'r-demo': { adChannelCode: 'demo', planTargetUrl: null },
      'r-fenqile': { adChannelCode: 'demo-fenqile', planTargetUrl: null },
      'r-plan': { adChannelCode: 'demo', planTargetUrl: '/login?adChannelCode=demo&from=plan' },
      // No plan URL of its own: the channel's.
      'r-link1': { adChannelCode: 'demo-link1', planTargetUrl: 'https://partner.example.com/apply' },
    };
    for (const [code, data] of Object.entries(expected)) {
      const res = await get(url(code));
      expect(res.statusCode, code).toBe(200);
      expect(body(res), code).toEqual({ code: 200, msg: 'success', data });
    }
  });
  it('refuses disabled and unknown route codes with a clear message', async () => {
    const off = await get(url('r-off'));
    expect(off.statusCode).toBe(404);
    expect(body(off)).toMatchObject({ code: 404, msg: '路由码已停用' });
    const unknown = await get(url('r-nope'));
    expect(unknown.statusCode).toBe(404);
    expect(body(unknown)).toMatchObject({ code: 404, msg: '路由码不存在' });
  });
  it('refuses bad input', async () => {
    for (const [qs, msg] of [
      ['', '路由码'],
      ['?adRouteCode=', '路由码不能为空'],
      [`?adRouteCode=${'r'.repeat(65)}`, '路由码最长64个字符'],
      ["?adRouteCode=r'%20or%201=1", '路由码只能包含'],
      ['?adChannelCode=demo', '路由码'],
    ] as const) {
      const res = await get(`/api/adChannel/exchange/adChannelCode${qs}`);
      expect(res.statusCode, qs).toBe(400);
      expect(body(res).msg, qs).toContain(msg);
    }
  });
});

describe(`GET /api/adChannel/h5Config (${BACKEND})`, () => {
  it('answers exactly the H5Config shape, cacheable for 30 s (5 s in a shared cache, ADR 062)', async () => {
    const { res, config } = await h5Config('?adChannelCode=demo-skin8');
    expect(res.headers['cache-control']).toBe('public, max-age=30, s-maxage=5');
    expect(Object.keys(config).sort()).toEqual(H5_CONFIG_KEYS);
    expect(config).toMatchObject({
      adChannelCode: 'demo-skin8',
      channelStatus: 1,
      linkType: 4,
      skin: 8,
      theme: 'purple',
      themeColor: THEMES.purple.primary,
      flow: 'default',
      flowRoutes: FLOW_ROUTES.default,
      flags: ['skin8', 'purple'],
      title: '星河易借',
      needsLocation: false,
      allowedHosts: ['partner.example.com'],
    });
    expect(config.icon).toMatch(/^data:image\/svg\+xml,/);
    expect(config.footer.length).toBeGreaterThan(0);
    expect(config.agreements).toEqual(
      AGREEMENT_PAGES.map((a) => ({ key: a.key, title: a.title, path: `/${a.key}` })),
    );
  });

  it('gives demo-fenqile the fenqile flow and demo-off its closed status', async () => {
    const fenqile = (await h5Config('?adChannelCode=demo-fenqile')).config;
    expect(fenqile).toMatchObject({
      flow: 'fenqile',
      flowRoutes: FLOW_ROUTES.fenqile,
      skin: 17,
      theme: 'red',
    });
    expect(fenqile.flowRoutes.form).toBe('/new-fill-information');
    const f3 = (await h5Config('?adChannelCode=demo-formprocess3')).config;
    expect(f3.flowRoutes).toEqual(FLOW_ROUTES.formprocess3);
    const haier = (await h5Config('?adChannelCode=demo-haier')).config;
    expect(haier.flags).toContain('haier');
    const location = (await h5Config('?adChannelCode=demo-location')).config;
    expect(location).toMatchObject({ needsLocation: true, linkType: 2, trackReport: { platform: 'baidu' } });
    const off = (await h5Config('?adChannelCode=demo-off')).config;
    expect(off).toMatchObject({ adChannelCode: 'demo-off', channelStatus: 0 });
    const demo = (await h5Config('?adChannelCode=demo')).config;
    expect(demo.trackReport).toEqual({ platform: 'oceanengine', params: ['clickid', 'callback'] });
  });

  it('answers the default configuration without a code or for an unknown code', async () => {
    const none = (await h5Config()).config;
    expect(Object.keys(none).sort()).toEqual(H5_CONFIG_KEYS);
    expect(none).toMatchObject(DEFAULT_H5_CONFIG);
    expect(none.agreements).toHaveLength(AGREEMENT_PAGES.length);
    expect((await h5Config('?adChannelCode=no-such-code')).config).toEqual(none);
    expect((await h5Config('?adChannelCode=')).config).toEqual(none);
  });

  it('answers in brotli or gzip to a phone that accepts them, the same JSON', async () => {
    const url = '/api/adChannel/h5Config?adChannelCode=demo-skin8';
    const plain = await get(url);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('accept-encoding');
    const json = plain.body;
    // What a phone's browser sends, then an older one, then one refusing brotli (q=0).
    for (const [accept, encoding, decode] of [
      ['gzip, deflate, br', 'br', brotliDecompressSync],
      ['gzip, deflate', 'gzip', gunzipSync],
      ['br;q=0, gzip', 'gzip', gunzipSync],
    ] as const) {
      const res = await get(url, { 'accept-encoding': accept });
      expect(res.statusCode, accept).toBe(200);
      expect(res.headers['content-encoding'], accept).toBe(encoding);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers.vary).toBe('accept-encoding');
      expect(res.headers['cache-control']).toBe('public, max-age=30, s-maxage=5');
      const body = decode(res.rawPayload);
      expect(body.toString('utf8'), accept).toBe(json);
      expect(body.length).toBeGreaterThan(res.rawPayload.length * 2);
    }
    // Nothing it can decode: the JSON as it is.
    const identity = await get(url, { 'accept-encoding': 'identity' });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body).toBe(json);

    // An A/B channel: each visitor's arm, compressed too; private, varying with the visitor and the encoding.
    await app.database.db.insert(channels).values({
      adChannelCode: 't-ab-br',
      name: 'AB压缩',
      flags: 'skin17',
      skinArms: [
        { skin: 8, weight: 50 },
        { skin: 9, weight: 50 },
      ],
    });
    const skins = new Set<number>();
    for (let i = 0; i < 12; i++) {
      const headers = {
        'accept-encoding': 'br',
        platform_param: JSON.stringify({ channel: 0, fingerprint: `ab-br-${i}` }),
      };
      const res = await get('/api/adChannel/h5Config?adChannelCode=t-ab-br', headers);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['cache-control']).toBe('private, max-age=30');
      expect(res.headers.vary).toBe('platform_param, accept-encoding');
      const config = (JSON.parse(brotliDecompressSync(res.rawPayload).toString('utf8')) as { data: H5Config })
        .data;
      skins.add(config.skin);
      // The same visitor, the same arm, plain.
      const again = await get('/api/adChannel/h5Config?adChannelCode=t-ab-br', {
        platform_param: headers.platform_param,
      });
      expect(body<H5Config>(again).data.skin).toBe(config.skin);
    }
    expect([...skins].sort()).toEqual([8, 9]);
  });

  it('refuses a malformed code', async () => {
    const res = await get(`/api/adChannel/h5Config?adChannelCode=${'x'.repeat(65)}`);
    expect(res.statusCode).toBe(400);
    expect(body(res).msg).toContain('渠道码最长64个字符');
  });

  it('caches per code until invalidated (in Redis when configured)', async () => {
    const db = app.database.db;
    await db.insert(channels).values({ adChannelCode: 't-cache', name: '缓存测试', pageTitle: '旧标题' });
    expect((await h5Config('?adChannelCode=t-cache')).config.title).toBe('旧标题');
    await db.update(channels).set({ pageTitle: '新标题' }).where(eq(channels.adChannelCode, 't-cache'));
    expect((await h5Config('?adChannelCode=t-cache')).config.title).toBe('旧标题');
    await app.services.channels.invalidate('t-cache');
    expect((await h5Config('?adChannelCode=t-cache')).config.title).toBe('新标题');

    // Unknown codes are cached too (a flood of made-up codes does not reach the database).
    expect((await get('/api/getAdChannel?adChannelCode=t-late')).statusCode).toBe(404);
    await db.insert(channels).values({ adChannelCode: 't-late', name: '后加' });
    expect((await get('/api/getAdChannel?adChannelCode=t-late')).statusCode).toBe(404);
    await app.services.channels.invalidate('t-late');
    expect((await get('/api/getAdChannel?adChannelCode=t-late')).statusCode).toBe(200);

    expect(app.services.channels.cacheName).toBe(app.redis ? 'redis' : 'memory');
    if (app.redis) {
      const keys = await app.redis.keys(
        `${app.config.REDIS_KEY_PREFIX}${ctx.shared.limiterPrefix}h5config:*`,
      );
      expect(keys.some((k) => k.endsWith(':t-cache'))).toBe(true);
      expect(await app.redis.pttl(keys[0]!)).toBeGreaterThan(0);
    }
  });
});

describe(`GET /api/reportAdChannelClick (${BACKEND})`, () => {
  const click = (qs: string, headers: Record<string, string> = {}, ip = newIp()) =>
    get(`/api/reportAdChannelClick?${qs}`, headers, ip);
  const clicksOf = (code: string) =>
    app.database.db.select().from(channelClicks).where(eq(channelClicks.adChannelCode, code));

  it('counts a fingerprint once per channel per Shanghai day', async () => {
    const first = await click('adChannelCode=demo-skin9&fingerprint=fp-aaa111&abTestType=9');
    expect(body(first)).toEqual({ code: 200, msg: 'success', data: { counted: true, flagged: false } });
    const again = await click('adChannelCode=demo-skin9&fingerprint=fp-aaa111&abTestType=9');
    expect(body(again).data).toEqual({ counted: false, flagged: false });
    const other = await click('adChannelCode=demo-skin9&fingerprint=fp-bbb222');
    expect(body(other).data).toEqual({ counted: true, flagged: false });
    const elsewhere = await click('adChannelCode=demo-skin10&fingerprint=fp-aaa111');
    expect(body(elsewhere).data).toEqual({ counted: true, flagged: false });

    const rows = await clicksOf('demo-skin9');
    expect(rows).toHaveLength(2);
    const mine = rows.find((r) => r.abTestType === 9)!;
    expect(mine.day).toBe(shanghaiDate());
    expect(mine.flagged).toBe(false);
    // Only a keyed hash of the fingerprint is stored.
    expect(mine.fingerprintHash).toBeTruthy();
    expect(mine.fingerprintHash).not.toContain('fp-aaa111');

    // Yesterday's click does not stop today's count.
    await app.database.db.delete(channelClicks).where(eq(channelClicks.adChannelCode, 'demo-skin11'));
    await app.database.db.insert(channelClicks).values({
      adChannelCode: 'demo-skin11',
      fingerprintHash: mine.fingerprintHash,
      day: shanghaiDate(new Date(Date.now() - 86_400_000)),
    });
    expect(body(await click('adChannelCode=demo-skin11&fingerprint=fp-aaa111')).data).toEqual({
      counted: true,
      flagged: false,
    });
  });

  it('accepts a click without a fingerprint, stored flagged', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await click('adChannelCode=demo-skin12&abTestType=12');
      expect(body(res)).toEqual({ code: 200, msg: 'success', data: { counted: false, flagged: true } });
    }
    const empty = await click('adChannelCode=demo-skin12&fingerprint=');
    expect(body(empty).data).toEqual({ counted: false, flagged: true });
    const rows = await clicksOf('demo-skin12');
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.flagged && r.fingerprintHash === null)).toBe(true);
  });

  it("takes the platform_param header's fingerprint when the query has none", async () => {
    const headers = { platform_param: JSON.stringify({ channel: 0, fingerprint: 'hdr-fp-1' }) };
    expect(body(await click('adChannelCode=demo-skin13', headers)).data).toEqual({
      counted: true,
      flagged: false,
    });
    expect(body(await click('adChannelCode=demo-skin13', headers)).data).toEqual({
      counted: false,
      flagged: false,
    });
  });

  it('answers 404 for an unknown channel and stores nothing', async () => {
    const res = await click('adChannelCode=ghost-channel&fingerprint=fp-x1');
    expect(res.statusCode).toBe(404);
    expect(body(res)).toMatchObject({ code: 404, msg: '渠道不存在' });
    expect(await clicksOf('ghost-channel')).toHaveLength(0);
  });

  it('refuses bad input with a Chinese message', async () => {
    const cases: [string, string][] = [
      ['fingerprint=fp-1', '渠道码'],
      ['adChannelCode=demo&abTestType=abc', 'abTestType 必须是0到999的整数'],
      ['adChannelCode=demo&abTestType=1&abTestType=2', 'abTestType 必须是数字'],
      ['adChannelCode=demo&abTestType=1000', 'abTestType 必须是0到999的整数'],
      [`adChannelCode=demo&fingerprint=${'f'.repeat(129)}`, '设备指纹最长128个字符'],
      ['adChannelCode=demo&fingerprint=%3Cscript%3E', '设备指纹只能包含'],
    ];
    for (const [qs, msg] of cases) {
      const res = await click(qs);
      expect(res.statusCode, qs).toBe(400);
      expect(body(res).msg, qs).toContain(msg);
    }
    const rows = await app.database.db
      .select()
      .from(channelClicks)
      .where(and(eq(channelClicks.adChannelCode, 'demo'), eq(channelClicks.abTestType, 1000)));
    expect(rows).toHaveLength(0);
  });

  it(`caps clicks per IP at ${CLICKS_PER_IP_PER_HOUR} an hour`, async () => {
    const ip = newIp();
    // Unknown codes still count against the cap (and are cheap: the lookup is cached).
    for (let i = 0; i < CLICKS_PER_IP_PER_HOUR; i += 50) {
      await Promise.all(
        Array.from({ length: 50 }, () => click('adChannelCode=cap-probe&fingerprint=fp-cap', {}, ip)),
      );
    }
    const res = await click('adChannelCode=demo&fingerprint=fp-cap', {}, ip);
    expect(res.statusCode).toBe(429);
    expect(body(res).msg).toMatch(/^点击上报过于频繁，请.+后再试$/);
    expect(body<{ retryAfter: number }>(res).data.retryAfter).toBeGreaterThan(0);
    expect(body(await click('adChannelCode=demo&fingerprint=fp-cap')).code).toBe(200);
  });
});

describe(`OpenAPI (${BACKEND})`, () => {
  it('documents the channel and reporting calls', async () => {
    const doc = (await get('/api/docs/json')).json() as { paths: Record<string, unknown> };
    for (const path of [
      '/api/getAdChannel',
      '/api/adChannel/plan/adChannelCode',
      '/api/adChannel/exchange/adChannelCode',
      '/api/adChannel/h5Config',
      '/api/reportAdChannelClick',
      '/api/report/event',
    ]) {
      expect(doc.paths, path).toHaveProperty([path]);
    }
  });
});
