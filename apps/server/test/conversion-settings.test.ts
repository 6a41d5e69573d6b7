/**
 * Issue 47.2: a channel's reporting to its ad platform, set in the console — the platform, the attribution
 * window (used at login, ADR 069), the event map with the platform's defaults, and credentials kept encrypted
 * and never answered back in clear.
 */
import { defaultEventMap } from '@lm/shared/conversions';
import type { ChannelConversionsData } from '@lm/shared/schemas/conversions';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, channelConversions, channels } from '../src/db/schema.ts';
import { BACKEND, body, newIp, staffLogin, useTestApp } from './helpers.ts';

const ctx = useTestApp();
let app: FastifyInstance;
let admin = '';
let viewer = '';
beforeAll(async () => {
  app = ctx.app;
  admin = (await staffLogin(app, 'admin', { name: '回传管理员' })).token;
  viewer = (await staffLogin(app, 'viewer')).token;
});

let n = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++n}`;

const call = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: object, token = admin) =>
  app.inject({
    method,
    url,
    headers: { accesstoken: token },
    remoteAddress: newIp(),
    ...(payload ? { payload } : {}),
  });

const idOf = async (code: string) =>
  (
    await app.database.db.select({ id: channels.id }).from(channels).where(eq(channels.adChannelCode, code))
  )[0]!.id;

async function newChannel(trackReport: { platform: string; params: string[] } | null) {
  const res = await call('POST', '/api/admin/channels', {
    adChannelCode: unique('conv'),
    name: '回传测试渠道',
    linkType: 4,
    skin: 17,
    trackReport,
  });
  expect(res.statusCode, res.body).toBe(200);
  return body<{ id: number; adChannelCode: string }>(res).data;
}

const settingsOf = async (id: number, token = admin) => {
  const res = await call('GET', `/api/admin/channels/${id}/conversions`, undefined, token);
  expect(res.statusCode, res.body).toBe(200);
  return body<ChannelConversionsData>(res).data;
};

describe(`a channel's conversion reporting in the console (issue 47.2) (${BACKEND})`, () => {
  it('the demo channels report to their platforms with the documented event codes', async () => {
    const demo = await settingsOf(await idOf('demo'));
    expect(demo).toMatchObject({ configured: true, enabled: true, platform: 'oceanengine', windowDays: 7 });
    expect(demo.problems).toEqual([]);
    expect(demo.credentials).toEqual([]);
    const on = (d: ChannelConversionsData) =>
      Object.entries(d.events)
        .filter(([, e]) => e.enabled)
        .map(([s, e]) => `${s}=${e.eventCode}`);
    expect(on(demo)).toEqual(['register=active_register', 'form=form', 'credit=loan_credit', 'loan=loan']);
    expect(demo.events.loan).toMatchObject({ firstOnly: true, sendValue: true, minAmountFen: null });

    const kuaishou = await settingsOf(await idOf('demo-skin11'));
    expect(on(kuaishou)).toEqual(['register=2', 'form=9', 'credit=11']);
    const baidu = await settingsOf(await idOf('demo-location'));
    expect(baidu.platform).toBe('baidu');
    expect(baidu.credentials).toEqual([
      { key: 'token', label: '百度 token', secret: true, set: true, shown: '****oken' },
    ]);
    const tencent = await settingsOf(await idOf('demo-skin14'));
    expect(on(tencent)).toEqual(['register=REGISTER', 'form=COMPLETE_ORDER', 'credit=CREDIT']);
    expect(tencent.credentials.map((c) => [c.key, c.shown])).toEqual([
      ['accountId', '20261205'],
      ['userActionSetId', '1100000001'],
      ['accessToken', '****oken'],
    ]);
    expect(JSON.stringify(tencent)).not.toContain('demo-tencent-access-token');
    expect(tencent.problems).toEqual([]);
  });

  it('an unsaved channel shows its capture’s platform with the defaults, off, and what would stop it', async () => {
    const ch = await newChannel({ platform: 'kuaishou', params: ['callback'] });
    const d = await settingsOf(ch.id);
    expect(d).toMatchObject({
      configured: false,
      enabled: false,
      platform: 'kuaishou',
      windowDays: 7,
      updatedAt: null,
    });
    expect(d.events).toEqual(defaultEventMap('kuaishou'));
    expect(d.problems).toEqual([]);

    const bare = await settingsOf((await newChannel(null)).id);
    expect(bare.platform).toBe('oceanengine');
    expect(bare.problems[0]).toMatch(/渠道未开启广告回传.*clickid、callback/);
  });

  it('switching reporting on is refused while the landing does not capture the platform’s click, or a credential is missing', async () => {
    const ch = await newChannel({ platform: 'oceanengine', params: ['clickid'] });
    const tencent = { enabled: true, platform: 'tencent', windowDays: 7, events: defaultEventMap('tencent') };
    let res = await call('PUT', `/api/admin/channels/${ch.id}/conversions`, tencent);
    expect(res.statusCode).toBe(400);
    expect(body(res).msg).toMatch(
      /无法开启回传：渠道采集的是 oceanengine 的参数，与回传平台 tencent.*不一致/,
    );
    expect(body(res).msg).toContain('请填写腾讯广告（微信、QQ）的广告主账户 ID');

    const bare = await newChannel(null);
    res = await call('PUT', `/api/admin/channels/${bare.id}/conversions`, {
      ...tencent,
      platform: 'oceanengine',
      events: defaultEventMap('oceanengine'),
    });
    expect(res.statusCode).toBe(400);
    expect(body(res).msg).toContain('渠道未开启广告回传');

    // Saved while off: what would stop it is listed, nothing refused.
    res = await call('PUT', `/api/admin/channels/${ch.id}/conversions`, { ...tencent, enabled: false });
    expect(res.statusCode, res.body).toBe(200);
    expect(body<ChannelConversionsData>(res).data.problems.length).toBeGreaterThanOrEqual(2);
  });

  it('bad input gets a clear message per field', async () => {
    const ch = await newChannel({ platform: 'kuaishou', params: ['callback'] });
    const good = { enabled: false, platform: 'kuaishou', windowDays: 7, events: defaultEventMap('kuaishou') };
    const cases: [object, RegExp][] = [
      [
        { ...good, events: { ...good.events, register: { ...good.events.register, eventCode: 'register' } } },
        /注册的事件编码格式不对：数字/,
      ],
      [
        { ...good, events: { ...good.events, loan: { ...good.events.loan, enabled: true, eventCode: '' } } },
        /请填写放款的事件编码/,
      ],
      [
        { ...good, events: { ...good.events, form: { ...good.events.form, minAmountFen: 100 } } },
        /表单提交没有金额/,
      ],
      [{ ...good, windowDays: 0 }, /归因窗口至少 1 天/],
      [{ ...good, windowDays: 31 }, /归因窗口最多 30 天/],
      [{ ...good, platform: 'sogou' }, /广告平台只能是/],
      [{ ...good, credentials: { token: 'abcdefgh1' } }, /该平台按点击回传，不需要凭据/],
      [
        {
          ...good,
          platform: 'baidu',
          events: defaultEventMap('baidu'),
          credentials: { token: 'bad token!' },
        },
        /百度 token格式不对/,
      ],
      [{ ...good, events: { register: good.events.register } }, /events/],
    ];
    for (const [payload, msg] of cases) {
      const res = await call('PUT', `/api/admin/channels/${ch.id}/conversions`, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(body(res).code).not.toBe(0);
      expect(body(res).msg).toMatch(msg);
    }
    expect((await call('PUT', '/api/admin/channels/999999/conversions', good)).statusCode).toBe(404);
    expect((await call('GET', '/api/admin/channels/999999/conversions')).statusCode).toBe(404);
  });

  it('credentials are stored encrypted, answered masked, kept when absent, dropped on a platform change; the audit names them only', async () => {
    const ch = await newChannel({ platform: 'baidu', params: ['bd_vid'] });
    const baidu = { enabled: true, platform: 'baidu', windowDays: 3, events: defaultEventMap('baidu') };
    const token = `tok-${unique('secret')}`;
    let res = await call('PUT', `/api/admin/channels/${ch.id}/conversions`, {
      ...baidu,
      credentials: { token },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).not.toContain(token);
    expect(body<ChannelConversionsData>(res).data.credentials[0]).toMatchObject({
      set: true,
      shown: `****${token.slice(-4)}`,
    });
    const [row] = await app.database.db
      .select()
      .from(channelConversions)
      .where(eq(channelConversions.channelId, ch.id));
    expect(row!.credentialsEnc).toBeTruthy();
    expect(row!.credentialsEnc).not.toContain(token);

    // An edit without credentials keeps the token (it stays enabled).
    res = await call('PUT', `/api/admin/channels/${ch.id}/conversions`, { ...baidu, windowDays: 5 });
    expect(res.statusCode, res.body).toBe(200);
    expect(body<ChannelConversionsData>(res).data).toMatchObject({ enabled: true, windowDays: 5 });

    // '' removes it: switching on is then refused, off is saved.
    res = await call('PUT', `/api/admin/channels/${ch.id}/conversions`, {
      ...baidu,
      credentials: { token: '' },
    });
    expect(res.statusCode).toBe(400);
    expect(body(res).msg).toContain('请填写百度营销的百度 token');

    // Another platform does not inherit the token.
    res = await call('PUT', `/api/admin/channels/${ch.id}/conversions`, {
      ...baidu,
      enabled: false,
      platform: 'tencent',
      events: defaultEventMap('tencent'),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(body<ChannelConversionsData>(res).data.credentials.every((c) => !c.set)).toBe(true);

    const entries = await app.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entity, 'channel_conversions'));
    const mine = entries.filter((e) => e.entityId === String(ch.id));
    expect(mine.map((e) => e.action)).toEqual(['create', 'update', 'update']);
    expect(JSON.stringify(mine)).not.toContain(token);
    expect(mine[0]!.after).toMatchObject({
      credentialsChanged: ['百度 token'],
      windowDays: 3,
      platform: 'baidu',
    });
    expect(mine[0]!.staffName).toBe('回传管理员');
  });

  it('a viewer reads, only staff who edit channels save', async () => {
    const id = await idOf('demo');
    const d = await settingsOf(id, viewer);
    const res = await call('PUT', `/api/admin/channels/${id}/conversions`, { ...d, credentials: {} }, viewer);
    expect(res.statusCode).toBe(403);
    expect((await app.inject({ url: `/api/admin/channels/${id}/conversions` })).statusCode).toBe(401);
  });

  it('the channel’s window decides which click a login is credited to (ADR 069)', async () => {
    const ch = await newChannel({ platform: 'oceanengine', params: ['clickid', 'callback'] });
    const events = defaultEventMap('oceanengine');
    const save = (windowDays: number) =>
      call('PUT', `/api/admin/channels/${ch.id}/conversions`, {
        enabled: true,
        platform: 'oceanengine',
        windowDays,
        events,
      });
    expect((await save(1)).statusCode).toBe(200);
    const now = new Date();
    const twoDaysAgo = new Date(now.getTime() - 2 * 86_400_000);
    const clickid = unique('click');
    const header = JSON.stringify({ platform: 'oceanengine', clickid });
    await app.services.adClicks.seen(header, ch.adChannelCode, twoDaysAgo);
    // A person id no login has (the attribution rule only compares ids).
    const uid = 2_000_000_000 + ++n;
    expect(
      await app.services.adClicks.login(header, { userId: uid, channelCode: ch.adChannelCode, now }),
    ).toBeNull();
    expect((await save(3)).statusCode).toBe(200);
    expect(
      await app.services.adClicks.login(header, { userId: uid, channelCode: ch.adChannelCode, now }),
    ).toMatchObject({
      clickId: clickid,
      userId: uid,
    });
  });
});
