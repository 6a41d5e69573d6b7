import type { H5Config } from '@lm/shared/channel';
import { shanghaiDate } from '@lm/shared/time';
import { and, count, eq, inArray, like } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, channelClicks, channels, routeCodeMisses } from '../src/db/schema.ts';
import { PREVIEW_TTL_MS, signPreview } from '../src/modules/channels/preview.ts';
import { MAX_COUNTED_UNKNOWN_ROUTE_CODES } from '../src/modules/channels/service.ts';
import { BACKEND, body, createTestApp, newIp, staffLogin, type TestContext } from './helpers.ts';

let ctx: TestContext;
let app: FastifyInstance;
const password = 'channel console pw';
const tokens: Record<'admin' | 'operator' | 'viewer', string> = { admin: '', operator: '', viewer: '' };

async function staffToken(role: 'admin' | 'operator' | 'viewer'): Promise<string> {
  return (await staffLogin(app, role, { name: `${role}-测试`, password })).token;
}

beforeAll(async () => {
  ctx = await createTestApp();
  app = ctx.app;
  for (const role of ['admin', 'operator', 'viewer'] as const) tokens[role] = await staffToken(role);
});
afterAll(async () => ctx?.close());

type Role = keyof typeof tokens;
const call = (role: Role | null, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  app.inject({
    method,
    url,
    payload: payload as object,
    headers: role ? { accesstoken: tokens[role] } : {},
    remoteAddress: newIp(),
  });

let seq = 0;
const code = () => `t-ch-${Date.now().toString(36)}-${++seq}`;

const draft = (over: Record<string, unknown> = {}) => ({
  name: '测试渠道',
  linkType: 4,
  skin: 17,
  flags: [] as string[],
  allowedHosts: ['partner.example.com'],
  ...over,
});

async function create(over: Record<string, unknown> = {}) {
  const adChannelCode = code();
  const res = await call('operator', 'POST', '/api/admin/channels', { adChannelCode, ...draft(over) });
  expect(res.statusCode, res.body).toBe(200);
  return body<{ id: number; adChannelCode: string } & Record<string, unknown>>(res).data;
}

const h5Config = async (query: string, fingerprint?: string) => {
  const res = await app.inject({
    method: 'GET',
    url: `/api/adChannel/h5Config?${query}`,
    headers: fingerprint ? { platform_param: JSON.stringify({ channel: 0, fingerprint }) } : {},
    remoteAddress: newIp(),
  });
  return { res, config: body<H5Config>(res).data };
};

const auditOf = (entity: string, entityId: string | number) =>
  app.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entity, entity), eq(auditLog.entityId, String(entityId))))
    .orderBy(auditLog.id);

describe(`console channels: CRUD and audit (${BACKEND})`, () => {
  it('an operator creates a channel; the H5 gets its skin, colour and footer; the audit log has it', async () => {
    const ch = await create({
      name: '紫色渠道',
      skin: 12,
      flags: ['purple', 'formprocess3', 'baidu'],
      excludeCityCodes: ['110100', '440300'],
      planTargetUrl: 'https://partner.example.com/apply?x=1',
      trackReport: { platform: 'baidu', params: ['bd_vid'] },
      operatorCode: 'hexin',
    });
    expect(ch).toMatchObject({
      skin: 12,
      flags: ['purple', 'formprocess3', 'baidu'],
      unknownFlags: [],
      channelStatus: 1,
      routeCodes: [],
      operator: {
        code: 'hexin',
        companyName: '杭州和信数据服务有限公司',
        shortName: '和信数据',
        filingNumber: '浙ICP备2026000004号',
      },
    });
    const { config } = await h5Config(`adChannelCode=${ch.adChannelCode}`);
    expect(config).toMatchObject({
      adChannelCode: ch.adChannelCode,
      name: '紫色渠道',
      skin: 12,
      theme: 'purple',
      flow: 'formprocess3',
      excludeCityCodes: ['110100', '440300'],
      planTargetUrl: 'https://partner.example.com/apply?x=1',
      trackReport: { platform: 'baidu', params: ['bd_vid'] },
      footer: [{ companyName: '杭州和信数据服务有限公司', filingNumber: '浙ICP备2026000004号' }],
    });
    const [entry] = await auditOf('channel', ch.id);
    expect(entry).toMatchObject({ action: 'create', staffName: 'operator-测试', before: null });
    expect(entry!.after).toMatchObject({
      adChannelCode: ch.adChannelCode,
      flags: 'skin12-purple-formprocess3-baidu',
      operatorCode: 'hexin',
    });
  });

  it('an edit shows on h5Config at once (cache invalidated) and is audited with before and after', async () => {
    const ch = await create({ skin: 17 });
    const first = await h5Config(`adChannelCode=${ch.adChannelCode}`);
    expect(first.config.skin).toBe(17);
    // Cached now; the edit must not wait for the TTL.
    const res = await call(
      'admin',
      'PUT',
      `/api/admin/channels/${ch.id}`,
      draft({ name: '改名', skin: 9, flags: ['teal'] }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const after = await h5Config(`adChannelCode=${ch.adChannelCode}`);
    expect(after.config).toMatchObject({ name: '改名', skin: 9, theme: 'teal' });
    const entries = await auditOf('channel', ch.id);
    const update = entries.find((e) => e.action === 'update')!;
    expect(update.before).toMatchObject({ name: '测试渠道', flags: 'skin17' });
    expect(update.after).toMatchObject({ name: '改名', flags: 'skin9-teal' });
  });

  it('disables and enables a channel; the H5 sees channelStatus at once', async () => {
    const ch = await create();
    await h5Config(`adChannelCode=${ch.adChannelCode}`);
    const off = await call('operator', 'PUT', `/api/admin/channels/${ch.id}/status`, { channelStatus: 0 });
    expect(body(off).data).toMatchObject({ channelStatus: 0 });
    expect((await h5Config(`adChannelCode=${ch.adChannelCode}`)).config.channelStatus).toBe(0);
    await call('operator', 'PUT', `/api/admin/channels/${ch.id}/status`, { channelStatus: 1 });
    expect((await h5Config(`adChannelCode=${ch.adChannelCode}`)).config.channelStatus).toBe(1);
    const entries = await auditOf('channel', ch.id);
    expect(
      entries
        .filter((e) => e.action === 'status')
        .map((e) => [e.before?.channelStatus, e.after?.channelStatus]),
    ).toEqual([
      [1, 0],
      [0, 1],
    ]);
  });

  it('lists with filters, sorting, paging and today’s counted clicks', async () => {
    const a = await create({ name: '列表A', linkType: 2 });
    const b = await create({ name: '列表B', linkType: 2 });
    await call('operator', 'PUT', `/api/admin/channels/${b.id}/status`, { channelStatus: 0 });
    await app.database.db.insert(channelClicks).values([
      { adChannelCode: a.adChannelCode, fingerprintHash: 'h1', day: shanghaiDate(), flagged: false },
      { adChannelCode: a.adChannelCode, fingerprintHash: 'h2', day: shanghaiDate(), flagged: false },
      { adChannelCode: a.adChannelCode, fingerprintHash: null, day: shanghaiDate(), flagged: true },
      { adChannelCode: a.adChannelCode, fingerprintHash: 'h3', day: '2020-01-01', flagged: false },
    ]);
    const res = await call('viewer', 'GET', '/api/admin/channels?q=列表&linkType=2&sort=name&order=asc');
    const data = body<{
      total: number;
      list: { adChannelCode: string; todayClicks: number; channelStatus: number }[];
    }>(res).data;
    expect(data.total).toBe(2);
    expect(data.list.map((c) => c.adChannelCode)).toEqual([a.adChannelCode, b.adChannelCode]);
    expect(data.list[0]!.todayClicks).toBe(2);
    const closed = body<{ list: { adChannelCode: string }[] }>(
      await call('viewer', 'GET', '/api/admin/channels?q=列表&status=0'),
    ).data;
    expect(closed.list.map((c) => c.adChannelCode)).toEqual([b.adChannelCode]);
    const paged = body<{ list: unknown[]; page: number; pageSize: number }>(
      await call('viewer', 'GET', '/api/admin/channels?q=列表&pageSize=1&page=2&sort=id&order=asc'),
    ).data;
    expect(paged).toMatchObject({ page: 2, pageSize: 1, list: [{ adChannelCode: b.adChannelCode }] });
    const badSort = await call('viewer', 'GET', '/api/admin/channels?sort=flags');
    expect(badSort.statusCode).toBe(400);
    expect(body(badSort).msg).toContain('不支持按 flags 排序');
  });

  it('manages route codes (plan target on an allowed host) and the H5 exchanges them', async () => {
    const ch = await create();
    const add = await call('operator', 'POST', `/api/admin/channels/${ch.id}/route-codes`, {
      routeCode: `${ch.adChannelCode}-r1`,
      planTargetUrl: 'https://partner.example.com/landing',
    });
    expect(add.statusCode, add.body).toBe(200);
    const ex = await app.inject({
      url: `/api/adChannel/exchange/adChannelCode?adRouteCode=${ch.adChannelCode}-r1`,
    });
    expect(body(ex).data).toEqual({
      adChannelCode: ch.adChannelCode,
      planTargetUrl: 'https://partner.example.com/landing',
    });

    const dup = await call('operator', 'POST', `/api/admin/channels/${ch.id}/route-codes`, {
      routeCode: `${ch.adChannelCode}-r1`,
    });
    expect(body(dup)).toMatchObject({ code: 400, msg: `路由码 ${ch.adChannelCode}-r1 已被使用` });
    const evil = await call('operator', 'POST', `/api/admin/channels/${ch.id}/route-codes`, {
      routeCode: `${ch.adChannelCode}-r2`,
      planTargetUrl: 'https://evil.example.net/',
    });
    expect(body(evil)).toMatchObject({
      code: 400,
      msg: '计划落地页的域名 evil.example.net 不在该渠道允许跳转的域名中',
    });

    // Dropping a host a route code still uses is refused.
    const drop = await call('operator', 'PUT', `/api/admin/channels/${ch.id}`, draft({ allowedHosts: [] }));
    expect(body(drop).code).toBe(400);
    expect(body(drop).msg).toContain('partner.example.com');

    const off = await call(
      'operator',
      'PUT',
      `/api/admin/channels/${ch.id}/route-codes/${ch.adChannelCode}-r1`,
      { status: 0 },
    );
    expect(body(off).data).toMatchObject({ status: 0, planTargetUrl: null });
    const ex2 = await app.inject({
      url: `/api/adChannel/exchange/adChannelCode?adRouteCode=${ch.adChannelCode}-r1`,
    });
    expect(body(ex2).msg).toBe('路由码已停用');
    const del = await call(
      'operator',
      'DELETE',
      `/api/admin/channels/${ch.id}/route-codes/${ch.adChannelCode}-r1`,
    );
    expect(body(del).data).toEqual({ deleted: true });
    const detail = body<{ routeCodes: unknown[] }>(
      await call('viewer', 'GET', `/api/admin/channels/${ch.id}`),
    ).data;
    expect(detail.routeCodes).toEqual([]);
    const entries = await auditOf('route_code', `${ch.adChannelCode}-r1`);
    expect(entries.map((e) => e.action)).toEqual(['create', 'update', 'delete']);
    expect(entries[1]!.before).toMatchObject({
      status: 1,
      planTargetUrl: 'https://partner.example.com/landing',
    });
    expect(entries[1]!.after).toMatchObject({ status: 0 });
  });

  it('counts dead route-code hits per code (disabled, deleted, unknown) for the console, with nothing of the visitor', async () => {
    const ch = await create({ name: '失效渠道' });
    const [off, gone, typo, live] = [
      `${ch.adChannelCode}-off`,
      `${ch.adChannelCode}-gone`,
      `${ch.adChannelCode}-typo`,
      `${ch.adChannelCode}-live`,
    ] as const;
    for (const [routeCode, status] of [
      [off, 0],
      [gone, 1],
      [live, 1],
    ] as const)
      expect(
        (await call('operator', 'POST', `/api/admin/channels/${ch.id}/route-codes`, { routeCode, status }))
          .statusCode,
      ).toBe(200);
    await call('operator', 'DELETE', `/api/admin/channels/${ch.id}/route-codes/${gone}`);
    const visit = (code: string, ip = newIp()) =>
      app.inject({
        url: `/api/adChannel/exchange/adChannelCode?adRouteCode=${code}`,
        remoteAddress: ip,
        headers: {
          'user-agent': 'Mozilla/5.0 (iPhone) visitor',
          platform_param: '{"fingerprint":"fp-dead"}',
        },
      });
    const before = Date.now();
    for (const code of [off, off, off, gone, gone, typo, live]) await visit(code, '203.0.113.77');
    expect((await visit(off)).statusCode).toBe(404);
    expect(body(await visit(live)).code).toBe(200);

    // The route codes list of the channel: 失效访问 and when last, for its disabled code.
    const detail = body<{
      routeCodes: { routeCode: string; missCount: number; lastMissAt: string | null }[];
    }>(await call('viewer', 'GET', `/api/admin/channels/${ch.id}`)).data;
    const item = (code: string) => detail.routeCodes.find((r) => r.routeCode === code)!;
    expect(item(off).missCount).toBe(4);
    expect(Date.parse(item(off).lastMissAt!)).toBeGreaterThanOrEqual(before);
    expect(item(live)).toMatchObject({ missCount: 0, lastMissAt: null });

    // Every dead code, the latest first: what it is now, and its channel when an operator's code holds it.
    const res = await call('viewer', 'GET', '/api/admin/route-code-misses?pageSize=200');
    expect(res.statusCode, res.body).toBe(200);
    const misses = body<{ total: number; list: Record<string, unknown>[] }>(res).data;
    const seen = misses.list.map((m) => Date.parse(String(m.lastSeenAt)));
    expect(seen).toEqual([...seen].sort((a, b) => b - a));
    const mine = misses.list.filter((m) => String(m.routeCode).startsWith(ch.adChannelCode));
    const miss = (code: string) => mine.find((m) => m.routeCode === code);
    expect(mine.map((m) => m.routeCode).sort()).toEqual([gone, off, typo]);
    expect(miss(off)).toMatchObject({
      routeCode: off,
      state: 'disabled',
      adChannelCode: ch.adChannelCode,
      channelId: ch.id,
      channelName: '失效渠道',
      hits: 4,
    });
    expect(miss(typo)).toMatchObject({ state: 'missing', adChannelCode: null, hits: 1 });
    expect(miss(gone)).toMatchObject({ state: 'missing', channelId: null, hits: 2 });
    // No personal data in that count: the code, how often, first and last time — no address, device or agent.
    const stored = await app.database.db
      .select()
      .from(routeCodeMisses)
      .where(eq(routeCodeMisses.routeCode, off));
    expect(Object.keys(stored[0]!).sort()).toEqual(['firstSeenAt', 'hits', 'lastSeenAt', 'routeCode']);
    expect(JSON.stringify(misses)).not.toContain('203.0.113.77');

    // Turned on again, its past hits stay visible as such.
    await call('operator', 'PUT', `/api/admin/channels/${ch.id}/route-codes/${off}`, { status: 1 });
    const again = body<{ list: { routeCode: string; state: string }[] }>(
      await call('viewer', 'GET', '/api/admin/route-code-misses?pageSize=200'),
    ).data.list.find((m) => m.routeCode === off);
    expect(again?.state).toBe('enabled');
    expect((await call(null, 'GET', '/api/admin/route-code-misses')).statusCode).toBe(401);
  });

  it('counts made-up route codes only up to a bound, while operators’ disabled codes are always counted', async () => {
    const ch = await create();
    const off = `${ch.adChannelCode}-bound-off`;
    await call('operator', 'POST', `/api/admin/channels/${ch.id}/route-codes`, { routeCode: off, status: 0 });
    const db = app.database.db;
    const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(routeCodeMisses);
    // Fill the table up to the bound with made-up codes (as a flood of strangers' links would).
    const fill = MAX_COUNTED_UNKNOWN_ROUTE_CODES - Number(n);
    if (fill > 0)
      await db
        .insert(routeCodeMisses)
        .values(
          Array.from({ length: fill }, (_, i) => ({ routeCode: `${ch.adChannelCode}-junk-${i}`, hits: 1 })),
        );
    const visit = (code: string) =>
      app.inject({
        url: `/api/adChannel/exchange/adChannelCode?adRouteCode=${code}`,
        remoteAddress: newIp(),
      });
    expect((await visit(`${ch.adChannelCode}-one-more`)).statusCode).toBe(404);
    expect((await visit(off)).statusCode).toBe(404);
    expect((await visit(`${ch.adChannelCode}-junk-0`)).statusCode).toBe(404);
    const rows = await db
      .select()
      .from(routeCodeMisses)
      .where(
        inArray(routeCodeMisses.routeCode, [
          `${ch.adChannelCode}-one-more`,
          off,
          `${ch.adChannelCode}-junk-0`,
        ]),
      );
    const hits = Object.fromEntries(rows.map((r) => [r.routeCode, r.hits]));
    expect(hits).toEqual({ [off]: 1, [`${ch.adChannelCode}-junk-0`]: 2 });
    await db.delete(routeCodeMisses).where(like(routeCodeMisses.routeCode, `${ch.adChannelCode}-junk-%`));
  });
});

describe(`console channels: permissions and validation (${BACKEND})`, () => {
  it('a viewer reads but every change is 403 (even with a broken body); no token is 401', async () => {
    const ch = await create();
    expect((await call('viewer', 'GET', `/api/admin/channels/${ch.id}`)).statusCode).toBe(200);
    const attempts = [
      call('viewer', 'PUT', `/api/admin/channels/${ch.id}`, draft({ name: '只读改名' })),
      call('viewer', 'PUT', `/api/admin/channels/${ch.id}`, { nonsense: true }),
      call('viewer', 'POST', '/api/admin/channels', { adChannelCode: code(), ...draft() }),
      call('viewer', 'PUT', `/api/admin/channels/${ch.id}/status`, { channelStatus: 0 }),
      call('viewer', 'POST', `/api/admin/channels/${ch.id}/route-codes`, { routeCode: 'viewer-rc' }),
      call('viewer', 'POST', '/api/admin/channels/preview', draft()),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode).toBe(403);
      expect(body(res)).toEqual({ code: 403, msg: '没有权限执行此操作', data: null });
    }
    expect((await call(null, 'GET', '/api/admin/channels')).statusCode).toBe(401);
    const [row] = await app.database.db.select().from(channels).where(eq(channels.id, ch.id));
    expect(row).toMatchObject({ name: '测试渠道', channelStatus: 1 });
    expect((await auditOf('channel', ch.id)).map((e) => e.action)).toEqual(['create']);
  });

  const bad = async (payload: Record<string, unknown>) => {
    const res = await call('operator', 'POST', '/api/admin/channels', {
      adChannelCode: code(),
      ...draft(payload),
    });
    expect(res.statusCode).toBe(400);
    return body<{ errors?: { field: string; message: string }[] }>(res);
  };

  const twoSkins = (first: Record<string, unknown>) => [first, { skin: 8, weight: 50 }];
  it.each<[string, Record<string, unknown>, string]>([
    ['an unknown flag', { flags: ['purple', 'rainbow'] }, '未知的功能标记：rainbow'],
    ['two theme colours', { flags: ['purple', 'teal'] }, '主题色只能选一个'],
    ['a link type out of range', { linkType: 10 }, '链接类型必须是 1 到 9 的整数'],
    ['an unknown skin', { skin: 7 }, '皮肤 7 不存在'],
    ['an unknown city code', { excludeCityCodes: ['110100', '999999'] }, '城市代码 999999 不在行政区划表中'],
    ['a plain-http plan URL', { planTargetUrl: 'http://partner.example.com/' }, 'https://'],
    [
      'a plan URL outside the allowed hosts',
      { planTargetUrl: 'https://other.example.org/x' },
      '计划落地页的域名 other.example.org 不在允许跳转的域名中',
    ],
    [
      'an allowed host with a path',
      { allowedHosts: ['https://partner.example.com/path'] },
      '允许跳转的域名格式不正确',
    ],
    [
      'a track report without params',
      { trackReport: { platform: 'baidu', params: [] } },
      '至少填写一个回传参数',
    ],
    ['a malformed operator code', { operatorCode: 'Bad Code' }, '运营主体编码为 2 到 32 位小写字母'],
    ['an unknown operator', { operatorCode: 'no-such-operator' }, '运营主体 no-such-operator 不存在'],
    ['a single skin arm', { skinArms: [{ skin: 12, weight: 50 }] }, '至少需要两个皮肤'],
    [
      'a repeated skin arm',
      {
        skinArms: [
          { skin: 12, weight: 50 },
          { skin: 12, weight: 50 },
        ],
      },
      '分流皮肤 skin12 重复',
    ],
    ['a zero weight', { skinArms: twoSkins({ skin: 12, weight: 0 }) }, '1 到 100'],
    ['a weight over 100', { skinArms: twoSkins({ skin: 12, weight: 101 }) }, '1 到 100'],
    ['a fractional weight', { skinArms: twoSkins({ skin: 12, weight: 1.5 }) }, '1 到 100'],
    ['an arm of an unknown skin', { skinArms: twoSkins({ skin: 99, weight: 10 }) }, '皮肤 99 不存在'],
  ])('refuses a draft with %s with a clear Chinese message', async (_what, payload, message) => {
    expect((await bad(payload)).msg).toContain(message);
  });

  it('refuses a bad or taken channel code and answers 404 for an unknown channel', async () => {
    const badCode = await call('operator', 'POST', '/api/admin/channels', {
      adChannelCode: 'bad code!',
      ...draft(),
    });
    expect(body(badCode).msg).toContain('渠道码只能包含字母、数字、下划线、点和短横线');
    const ch = await create();
    const dup = await call('operator', 'POST', '/api/admin/channels', {
      adChannelCode: ch.adChannelCode,
      ...draft(),
    });
    expect(body(dup)).toMatchObject({ code: 400, msg: `渠道码 ${ch.adChannelCode} 已存在` });
    expect((await call('operator', 'GET', '/api/admin/channels/999999')).statusCode).toBe(404);
  });
});

describe(`A/B skin arms (${BACKEND})`, () => {
  it('splits visitors by weight, sticky per fingerprint, and the answer carries only the arm’s skin', async () => {
    const ch = await create({
      skin: 17,
      flags: ['purple'],
      skinArms: [
        { skin: 17, weight: 30 },
        { skin: 12, weight: 70 },
      ],
    });
    expect(ch.skinArms).toEqual([
      { skin: 17, weight: 30 },
      { skin: 12, weight: 70 },
    ]);
    const seen: Record<number, number> = {};
    const firstOf = new Map<string, number>();
    for (let i = 0; i < 400; i++) {
      const fp = `fp-arm-${i}`;
      const { res, config } = await h5Config(`adChannelCode=${ch.adChannelCode}`, fp);
      expect(res.headers['cache-control']).toMatch(/^private/);
      expect(config).not.toHaveProperty('skinArms');
      expect(config.flags).toEqual([`skin${config.skin}`, 'purple']);
      expect(config.theme).toBe('purple');
      seen[config.skin] = (seen[config.skin] ?? 0) + 1;
      firstOf.set(fp, config.skin);
    }
    expect(Object.keys(seen).sort()).toEqual(['12', '17']);
    // 400 visitors, 70 % weight: 280 expected; ±50 is beyond 5 standard deviations.
    expect(seen[12]).toBeGreaterThan(230);
    expect(seen[12]).toBeLessThan(330);
    for (const fp of ['fp-arm-1', 'fp-arm-2', 'fp-arm-3', 'fp-arm-50']) {
      expect((await h5Config(`adChannelCode=${ch.adChannelCode}`, fp)).config.skin).toBe(firstOf.get(fp));
    }
    // Without a fingerprint the IP decides: the same IP, the same arm.
    const ip = newIp();
    const byIp = async () =>
      body<H5Config>(
        await app.inject({
          url: `/api/adChannel/h5Config?adChannelCode=${ch.adChannelCode}`,
          remoteAddress: ip,
        }),
      ).data.skin;
    const s = await byIp();
    expect(await byIp()).toBe(s);
  });

  it('removing the arms gives everyone the channel skin again at once', async () => {
    const ch = await create({
      skin: 9,
      skinArms: [
        { skin: 8, weight: 50 },
        { skin: 10, weight: 50 },
      ],
    });
    const skins = new Set<number>();
    for (let i = 0; i < 30; i++)
      skins.add((await h5Config(`adChannelCode=${ch.adChannelCode}`, `fp-x-${i}`)).config.skin);
    expect([...skins].sort()).toEqual([10, 8].sort());
    await call('operator', 'PUT', `/api/admin/channels/${ch.id}`, draft({ skin: 9, skinArms: null }));
    const { res, config } = await h5Config(`adChannelCode=${ch.adChannelCode}`, 'fp-x-1');
    expect(config.skin).toBe(9);
    expect(res.headers['cache-control']).toMatch(/^public/);
  });
});

describe(`live preview token (${BACKEND})`, () => {
  it('answers the unsaved draft for a valid token, never cached, and counts nothing', async () => {
    const ch = await create({ skin: 17 });
    const res = await call('operator', 'POST', '/api/admin/channels/preview', {
      ...draft({
        name: '未保存的名字',
        skin: 20,
        flags: ['halo'],
        skinArms: [
          { skin: 20, weight: 1 },
          { skin: 22, weight: 1 },
        ],
      }),
      adChannelCode: ch.adChannelCode,
      previewSkin: 22,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { token, expiresAt } = body<{ token: string; expiresAt: string }>(res).data;
    expect(new Date(expiresAt).getTime() - Date.now()).toBeGreaterThan(PREVIEW_TTL_MS - 60_000);
    const preview = await h5Config(`previewToken=${token}`);
    expect(preview.res.headers['cache-control']).toBe('no-store');
    expect(preview.config).toMatchObject({ name: '未保存的名字', skin: 22, theme: 'halo', channelStatus: 1 });
    // The saved channel is unchanged.
    expect((await h5Config(`adChannelCode=${ch.adChannelCode}`)).config).toMatchObject({
      name: '测试渠道',
      skin: 17,
    });
    const clicks = await app.database.db
      .select()
      .from(channelClicks)
      .where(eq(channelClicks.adChannelCode, ch.adChannelCode));
    expect(clicks).toEqual([]);
  });

  it('refuses forged, tampered and expired tokens with the envelope', async () => {
    const { token } = body<{ token: string }>(
      await call('admin', 'POST', '/api/admin/channels/preview', draft()),
    ).data;
    const [payload, mac] = token.split('.');
    const tamperedPayload = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), skin: 8 }),
    ).toString('base64url');
    for (const forged of [`${tamperedPayload}.${mac}`, `${payload}.${'A'.repeat(mac!.length)}`]) {
      const res = await h5Config(`previewToken=${forged}`);
      expect(res.res.statusCode).toBe(401);
      expect(body(res.res)).toEqual({ code: 1103, msg: '预览链接无效，请在后台重新打开预览', data: null });
    }
    const expired = signPreview(
      app.services.keys.ring,
      {
        adChannelCode: '',
        name: '过期',
        channelStatus: 1,
        linkType: 4,
        flags: 'skin17',
        excludeCityCodes: [],
        planTargetUrl: null,
        pageTitle: null,
        pageIcon: null,
        needsLocation: false,
        trackReport: null,
        allowedHosts: [],
        operator: null,
      },
      17,
      Date.now() - PREVIEW_TTL_MS - 1000,
    );
    const old = await h5Config(`previewToken=${expired.token}`);
    expect(old.res.statusCode).toBe(401);
    expect(body(old.res).msg).toBe('预览链接已过期，请在后台刷新预览');
    const malformed = await h5Config('previewToken=not-a-token');
    expect(malformed.res.statusCode).toBe(400);
    expect(body(malformed.res).msg).toContain('预览令牌格式不正确');
  });

  it('lets the console frame the H5 (same origin only)', async () => {
    // The console frames the H5's pages (anything outside /api); API answers are framed by nothing (ADR 036).
    const res = await app.inject({ url: '/?adChannelCode=demo' });
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(String(res.headers['x-frame-options']).toUpperCase()).toBe('SAMEORIGIN');
    const api = await app.inject({ url: '/api/adChannel/h5Config' });
    expect(api.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });
});
