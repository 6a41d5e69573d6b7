import { shanghaiDate } from '@lm/shared/time';
import { and, desc, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { appVersions, auditLog, banners, clientReports, pageConfigs, staff } from '../src/db/schema.ts';
import { blindIndex, decryptField } from '../src/lib/crypto.ts';
import { PHONE_PLACEHOLDER, signTempLink } from '../src/modules/site/rules.ts';
import { DEMO_ICONS } from '../src/modules/site/seed.ts';
import { REPORT_LIMITS } from '../src/modules/site/service.ts';
import { BACKEND, body, loginAs, newIp, newPhone, staffLogin, useTestApp } from './helpers.ts';

const logLines: string[] = [];
const ctx = useTestApp({ logStream: { write: (line) => logLines.push(line) } });
const db = () => ctx.app.database.db;

let fpCounter = 0;
/** A fresh device fingerprint per call. */
const newFingerprint = () => `fp-site-${Date.now().toString(36)}-${++fpCounter}`;
const platformParam = (fingerprint: string, channel = 'demo') =>
  JSON.stringify({ channel: 0, currentChannelCode: channel, deviceBrand: 'default', fingerprint });

interface Req {
  method?: 'GET' | 'POST' | 'PUT';
  url: string;
  payload?: unknown;
  token?: string;
  fingerprint?: string;
  channel?: string;
  ip?: string;
  contentType?: string;
}
function call({ method = 'GET', url, payload, token, fingerprint, channel, ip, contentType }: Req) {
  const headers: Record<string, string> = {};
  if (token) headers.accesstoken = token;
  if (fingerprint) headers.platform_param = platformParam(fingerprint, channel);
  if (contentType) headers['content-type'] = contentType;
  return ctx.app.inject({
    method,
    url,
    headers,
    remoteAddress: ip ?? newIp(),
    ...(payload !== undefined ? { payload: payload as string } : {}),
  });
}

async function latestReport(kind: (typeof clientReports.$inferSelect)['kind']) {
  const [row] = await db()
    .select()
    .from(clientReports)
    .where(eq(clientReports.kind, kind))
    .orderBy(desc(clientReports.id))
    .limit(1);
  return row!;
}

describe(`app versions and the download JSON (${BACKEND})`, () => {
  interface Newest {
    platform: string;
    version: string;
    build: number;
    downloadUrl: string;
    notes: string;
    forceUpdate: boolean;
    publishedAt: string;
    manifestUrl: string;
  }

  it('answers the newest published version of the platform with the JSON URL, null when none', async () => {
    const missing = await call({ url: '/api/appVersion/newestVersion' });
    expect(missing.statusCode).toBe(400);
    expect(body(missing).msg).toContain('platform');
    expect((await call({ url: '/api/appVersion/newestVersion?platform=windows' })).statusCode).toBe(400);

    const seeded = body<Newest>(await call({ url: '/api/appVersion/newestVersion?platform=android' }));
    expect(seeded.code).toBe(200);
    expect(seeded.data).toMatchObject({
      platform: 'android',
      version: '2.3.0',
      build: 230,
      forceUpdate: false,
    });
    expect(seeded.data.manifestUrl).toBe('/api/storage/public/app/download.json');

    // A newer build wins; one published in the future does not show yet.
    await db()
      .insert(appVersions)
      .values([
        {
          platform: 'android',
          version: '2.4.0',
          build: 240,
          downloadUrl: 'https://download.example.com/app/loan-market-2.4.0.apk',
          notes: '新版本',
          forceUpdate: true,
          publishedAt: new Date(Date.now() - 60_000),
        },
        {
          platform: 'android',
          version: '9.0.0',
          build: 900,
          downloadUrl: 'https://download.example.com/app/future.apk',
          publishedAt: new Date(Date.now() + 86_400_000),
        },
      ]);
    const newer = body<Newest>(await call({ url: '/api/appVersion/newestVersion?platform=android' })).data;
    expect(newer).toMatchObject({ version: '2.4.0', build: 240, forceUpdate: true, notes: '新版本' });

    await db().delete(appVersions).where(eq(appVersions.platform, 'ios'));
    const none = body(await call({ url: '/api/appVersion/newestVersion?platform=ios' }));
    expect(none).toEqual({ code: 200, msg: 'success', data: null });
  });

  it('writes the app-download JSON to the public storage area, rewritten when versions change', async () => {
    // The newestVersion calls above saw changed versions: the file follows without a restart.
    const url = '/api/storage/public/app/download.json';
    let manifest: { generatedAt: string; android: { version: string } | null; ios: unknown } | null = null;
    for (let i = 0; i < 50; i++) {
      const res = await call({ url: `${url}?t=${Date.now()}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.headers['cache-control']).toBe('no-cache');
      manifest = res.json();
      if (manifest?.android?.version === '2.4.0' && manifest.ios === null) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(manifest?.android?.version).toBe('2.4.0');
    expect(manifest?.ios).toBeNull();
    expect(Number.isNaN(Date.parse(manifest!.generatedAt))).toBe(false);
  });

  it('records a download tap (silent call) with device hash, channel and Shanghai day', async () => {
    const fingerprint = newFingerprint();
    const res = await call({
      url: '/api/reportUserDownloadApp?platform=ios',
      fingerprint,
      channel: 'demo-fenqile',
    });
    expect(body(res)).toEqual({ code: 200, msg: 'success', data: { recorded: true } });
    const row = await latestReport('download');
    expect(row).toMatchObject({
      name: 'ios',
      channelCode: 'demo-fenqile',
      day: shanghaiDate(),
      userId: null,
    });
    expect(row.deviceHash).toBe(blindIndex(ctx.app.services.keys.ring, 'device', fingerprint));
    expect(row.deviceHash).not.toContain(fingerprint);
    expect((await call({ url: '/api/reportUserDownloadApp?platform=symbian' })).statusCode).toBe(400);
  });
});

describe(`home dialog banner (${BACKEND})`, () => {
  const now = Date.now();
  const banner = (title: string, over: Partial<typeof banners.$inferInsert> = {}) => ({
    placement: 'homeDialog',
    title,
    imageUrl: `/banners/${title}.svg`,
    targetUrl: '/advertising',
    channelCodes: null,
    enabled: true,
    sort: 5,
    startsAt: new Date(now - 3600_000),
    endsAt: null,
    ...over,
  });
  const get = (query = '', fingerprint?: string, channel?: string) =>
    call({
      url: `/api/banner/homeDialogBanner${query}`,
      ...(fingerprint ? { fingerprint } : {}),
      ...(channel ? { channel } : {}),
    });

  beforeAll(async () => {
    await db().delete(banners);
    await db()
      .insert(banners)
      .values([
        banner('all', { sort: 5 }),
        banner('all-later-start', { sort: 5, startsAt: new Date(now - 60_000) }),
        banner('for-x', { sort: 1, channelCodes: ['ch-x', 'ch-y'] }),
        banner('disabled', { sort: 0, enabled: false }),
        banner('future', { sort: 0, startsAt: new Date(now + 3600_000) }),
        banner('ended', { sort: 0, endsAt: new Date(now - 1000) }),
        banner('other-placement', { sort: 0, placement: 'homeTop' }),
        banner('no-channel-list', { sort: 0, channelCodes: [] }),
      ]);
  });

  it('picks the enabled, current banner of the channel or of every channel, lowest sort first', async () => {
    // No channel: banners for every channel only; equal sort → the later start.
    const anyone = body<{ title: string; imageUrl: string; targetUrl: string }>(await get());
    expect(anyone.data).toMatchObject({
      title: 'all-later-start',
      imageUrl: '/banners/all-later-start.svg',
      targetUrl: '/advertising',
    });
    expect(body<{ title: string }>(await get('?adChannelCode=ch-x')).data.title).toBe('for-x');
    expect(body<{ title: string }>(await get('?adChannelCode=ch-z')).data.title).toBe('all-later-start');
    // Without a query the platform_param header's channel counts.
    expect(body<{ title: string }>(await get('', newFingerprint(), 'ch-y')).data.title).toBe('for-x');
    // The query wins over the header.
    expect(
      body<{ title: string }>(await get('?adChannelCode=ch-z', newFingerprint(), 'ch-y')).data.title,
    ).toBe('all-later-start');
  });

  it('answers null when nothing fits, and 400 for a malformed channel code', async () => {
    await db()
      .delete(banners)
      .where(inArray(banners.title, ['all', 'all-later-start']));
    expect(body(await get('?adChannelCode=ch-z')).data).toBeNull();
    expect(body<{ title: string }>(await get('?adChannelCode=ch-x')).data.title).toBe('for-x');
    const bad = await get('?adChannelCode=bad%20code');
    expect(bad.statusCode).toBe(400);
    expect(body(bad).msg).toContain('渠道码');
  });
});

describe(`page configuration (${BACKEND})`, () => {
  it('answers a configuration by code, 404 for an unknown one, 400 for a malformed one', async () => {
    const page = body<{ code: string; config: { title: string; features: string[] } }>(
      await call({ url: '/api/pageConfig/getPageConfigByCode?code=downloadPage' }),
    );
    expect(page.code).toBe(200);
    expect(page.data.code).toBe('downloadPage');
    expect(page.data.config.title).toContain('下载');
    expect(page.data.config.features.length).toBeGreaterThan(0);

    const unknown = await call({ url: '/api/pageConfig/getPageConfigByCode?code=noSuchPage' });
    expect(unknown.statusCode).toBe(404);
    expect(body(unknown)).toMatchObject({ code: 404, msg: '页面配置不存在：noSuchPage', data: null });
    expect((await call({ url: '/api/pageConfig/getPageConfigByCode?code=a/b' })).statusCode).toBe(400);
    expect((await call({ url: '/api/pageConfig/getPageConfigByCode' })).statusCode).toBe(400);
  });

  it('lists the home icons, leaving out malformed entries', async () => {
    const seeded = body<{ key: string; title: string; icon: string; path: string }[]>(
      await call({ url: '/api/pageConfig/getAppIndexIconList' }),
    );
    expect(seeded.data).toEqual(DEMO_ICONS);

    await db()
      .update(pageConfigs)
      .set({
        config: {
          icons: [
            { key: 'ok', title: '正常', icon: '/icons/ok.svg', path: '/borrow-money' },
            { key: 'ext', title: '外链', icon: '/icons/x.svg', path: 'https://evil.example.net/' },
            { key: 'proto', title: '协议', icon: 'javascript:alert(1)', path: '/' },
            { title: '缺键', icon: '/icons/x.svg', path: '/' },
          ],
        },
      })
      .where(eq(pageConfigs.code, 'appIndexIconList'));
    const filtered = body<{ key: string }[]>(await call({ url: '/api/pageConfig/getAppIndexIconList' })).data;
    expect(filtered.map((i) => i.key)).toEqual(['ok']);
  });
});

describe(`temporary link (${BACKEND})`, () => {
  const open = (token: string) => call({ url: `/api/common/temp/link/open?token=${token}` });
  const key = () => blindIndex(ctx.app.services.keys.ring, 'temp-link-key', 'v1');

  it('signs a 10-minute link carrying the channel; opening it lands on the page with the channel', async () => {
    const before = Date.now();
    const res = await call({ url: '/api/common/temp/link?type=download&adChannelCode=demo' });
    const link = body<{ type: string; url: string; expiresAt: string }>(res).data;
    expect(link.type).toBe('download');
    const expires = Date.parse(link.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 600_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 600_000);
    expect(link.url).toMatch(/^\/api\/common\/temp\/link\/open\?token=[\w-]+\.[\w-]+$/);

    const opened = await call({ url: link.url });
    expect(opened.statusCode).toBe(302);
    expect(opened.headers.location).toBe('/download?adChannelCode=demo');

    // The service link, channel from platform_param.
    const service = body<{ url: string }>(
      await call({
        url: '/api/common/temp/link?type=service',
        fingerprint: newFingerprint(),
        channel: 'demo-crm',
      }),
    ).data;
    expect((await call({ url: service.url })).headers.location).toBe('/apply_my?adChannelCode=demo-crm');
  });

  it('refuses a forged or expired link (no channel carried), and validates the type', async () => {
    const { token } = signTempLink(key(), { type: 'download', channel: 'demo' }, new Date());
    const [payload, sig] = token.split('.');
    // Another channel in the payload with the old signature.
    const forgedPayload = Buffer.from(
      JSON.stringify({ t: 'download', c: 'evil', e: Math.floor(Date.now() / 1000) + 600 }),
    ).toString('base64url');
    expect((await open(`${forgedPayload}.${sig}`)).headers.location).toBe('/download?linkExpired=1');
    // A signature with its last characters changed (always to something else).
    const tampered = `${sig!.slice(0, -2)}${sig!.endsWith('AA') ? 'QA' : 'AA'}`;
    expect((await open(`${payload}.${tampered}`)).headers.location).toBe('/download?linkExpired=1');
    // Signed 11 minutes ago: expired one minute ago.
    const old = signTempLink(key(), { type: 'service', channel: 'demo' }, new Date(Date.now() - 660_000));
    expect((await open(old.token)).headers.location).toBe('/apply_my?linkExpired=1');
    // Signed with another key.
    const other = signTempLink('another-key', { type: 'download', channel: 'demo' }, new Date());
    expect((await open(other.token)).headers.location).toBe('/download?linkExpired=1');

    expect((await open('not-a-token')).statusCode).toBe(400);
    const badType = await call({ url: '/api/common/temp/link?type=wechat' });
    expect(badType.statusCode).toBe(400);
    expect(body(badType).msg).toContain('download 或 service');
  });
});

describe(`client reports (${BACKEND})`, () => {
  it('stores type, click and device reports with user, device hash, channel and Shanghai day', async () => {
    const { token, uid } = await loginAs(ctx.app);
    const fingerprint = newFingerprint();
    const typed = await call({
      method: 'POST',
      url: '/api/report/type?type=page_view',
      payload: { data: { page: '/advertising', phone: '13812345678', note: '联系13912345678' } },
      token,
      fingerprint,
      channel: 'demo',
    });
    expect(body(typed)).toEqual({ code: 200, msg: 'success', data: { recorded: true } });
    const row = await latestReport('type');
    expect(row).toMatchObject({
      name: 'page_view',
      userId: uid,
      channelCode: 'demo',
      day: shanghaiDate(),
      deviceHash: blindIndex(ctx.app.services.keys.ring, 'device', fingerprint),
    });
    expect(row.payload).toEqual({
      data: { page: '/advertising', phone: '[已隐藏]', note: `联系${PHONE_PLACEHOLDER}` },
    });

    // Anonymous click, sent as a beacon: text/plain JSON, fingerprint and channel in the body.
    const beaconFp = newFingerprint();
    const click = await call({
      method: 'POST',
      url: '/api/report/click?type=banner',
      payload: JSON.stringify({ data: { bannerId: 7 }, fingerprint: beaconFp, adChannelCode: 'demo-crm' }),
      contentType: 'text/plain;charset=UTF-8',
    });
    expect(body(click).code).toBe(200);
    expect(await latestReport('click')).toMatchObject({
      name: 'banner',
      userId: null,
      channelCode: 'demo-crm',
      deviceHash: blindIndex(ctx.app.services.keys.ring, 'device', beaconFp),
      payload: { data: { bannerId: 7 } },
    });

    const device = await call({
      method: 'PUT',
      url: '/api/report/h5device?devicePlatForm=android',
      payload: { data: { screen: '390x844', lang: 'zh-CN', brand: 'huawei' } },
      fingerprint: newFingerprint(),
    });
    expect(body(device).code).toBe(200);
    expect(await latestReport('h5device')).toMatchObject({
      name: 'android',
      payload: { data: { screen: '390x844', lang: 'zh-CN', brand: 'huawei' } },
    });

    // A lone surrogate (PostgreSQL refuses it in jsonb) is stored as U+FFFD, not answered with a 500.
    const odd = await ctx.app.inject({
      method: 'PUT',
      url: '/api/report/h5device?devicePlatForm=.',
      headers: { 'content-type': 'application/json' },
      payload: '{"data":{"-":"\\ud800x"}}',
      remoteAddress: newIp(),
    });
    expect(odd.statusCode, odd.body).toBe(200);
    expect(await latestReport('h5device')).toMatchObject({ payload: { data: { '-': '\ufffdx' } } });
  });

  it('validates the report calls', async () => {
    const cases: [Req, string][] = [
      [{ method: 'POST', url: '/api/report/type', payload: {} }, 'type'],
      [{ method: 'POST', url: '/api/report/click?type=has%20space', payload: {} }, 'type'],
      [{ method: 'PUT', url: '/api/report/h5device', payload: {} }, 'devicePlatForm'],
      [{ method: 'POST', url: '/api/report/log', payload: {} }, 'content'],
      [{ method: 'POST', url: `/api/report/log?content=${'x'.repeat(2001)}`, payload: {} }, '2000'],
      [{ method: 'POST', url: '/api/report/type?type=a', payload: { data: { 'bad key': 1 } } }, '键'],
      [{ method: 'POST', url: '/api/report/type?type=a', payload: { data: { a: 'x'.repeat(201) } } }, '200'],
      [{ method: 'POST', url: '/api/report/type?type=a', payload: [1, 2] }, 'JSON'],
    ];
    for (const [req, text] of cases) {
      const res = await call(req);
      expect(res.statusCode, req.url).toBe(400);
      expect(body(res).msg, req.url).toContain(text);
    }
  });

  it('report/log removes phone-like and ID-like numbers, and keeps them out of the request log', async () => {
    const content =
      '提交失败 手机13812345678 号码+86 139-1234-5678 证件11010519491231002X 时间戳1700000000000';
    const res = await call({
      method: 'POST',
      url: `/api/report/log?content=${encodeURIComponent(content)}`,
      payload: {},
      fingerprint: newFingerprint(),
    });
    expect(body(res).code).toBe(200);
    const row = await latestReport('log');
    const stored = (row.payload as { content: string }).content;
    expect(stored).toBe(
      `提交失败 手机${PHONE_PLACEHOLDER} 号码${PHONE_PLACEHOLDER} 证件[证件号已隐藏] 时间戳1700000000000`,
    );
    const logs = logLines.join('\n');
    expect(logs).not.toContain('13812345678');
    expect(logs).not.toContain('11010519491231002X');
  });

  it('limits reports per device and per IP', async () => {
    const fingerprint = newFingerprint();
    const ip = newIp();
    const put = (fp: string) =>
      call({
        method: 'PUT',
        url: '/api/report/h5device?devicePlatForm=ios',
        payload: {},
        fingerprint: fp,
        ip,
      });
    for (let i = 0; i < REPORT_LIMITS.h5device.device; i++)
      expect((await put(fingerprint)).statusCode).toBe(200);
    const refused = await put(fingerprint);
    expect(refused.statusCode).toBe(429);
    expect(body(refused).msg).toMatch(/^设备上报过于频繁，请.+后再试$/);
    // Another device behind the same IP still reports.
    expect((await put(newFingerprint())).statusCode).toBe(200);
  });

  it('GET /api/user/info/log needs a login and stores the query capped, without personal values', async () => {
    expect((await call({ url: '/api/user/info/log?page=a' })).statusCode).toBe(401);
    const { token, uid } = await loginAs(ctx.app);
    const phone = newPhone();
    const query = new URLSearchParams({
      page: '/apply_limit',
      from: `sms-${phone}`,
      mobile: phone,
      identity: '11010519491231002X',
      long: 'y'.repeat(300),
    });
    for (let i = 0; i < 20; i++) query.append(`k${i}`, String(i));
    const res = await call({ url: `/api/user/info/log?${query}`, token });
    expect(body(res)).toEqual({ code: 200, msg: 'success', data: { recorded: true } });
    const row = await latestReport('userInfoLog');
    expect(row.userId).toBe(uid);
    const payload = row.payload as { query: Record<string, string>; droppedKeys: number };
    expect(Object.keys(payload.query)).toHaveLength(20);
    expect(payload.droppedKeys).toBe(5);
    expect(payload.query).toMatchObject({
      page: '/apply_limit',
      from: `sms-${PHONE_PLACEHOLDER}`,
      mobile: '[已隐藏]',
      identity: '[已隐藏]',
      long: 'y'.repeat(200),
    });
    expect(JSON.stringify(row)).not.toContain(phone);
    expect(logLines.join('\n')).not.toContain(phone);

    expect((await call({ url: '/api/user/info/log', token })).statusCode).toBe(400);
    expect((await call({ url: '/api/user/info/log?bad%20key=1', token })).statusCode).toBe(400);
  });
});

describe(`staff WeChat binding (${BACKEND})`, () => {
  const password = 'correct horse battery';
  const staffToken = (role: 'admin' | 'viewer') =>
    staffLogin(ctx.app, role, { name: `员工${role}`, password });
  const bind = (openid: unknown, token?: string) =>
    call({
      method: 'PUT',
      url: '/api/crm/admin/org/employee/wechat/bindOpenid',
      payload: { openid },
      ...(token ? { token } : {}),
    });

  it('binds an openid to the calling staff member, encrypted with a blind index', async () => {
    const a = await staffToken('viewer');
    const openid = 'o6_bmjrPTlm6_2sgVt7hMZOPfL2M';
    const res = await bind(openid, a.token);
    expect(res.statusCode).toBe(200);
    const data = body<{ staffId: number; openidMasked: string; boundAt: string }>(res).data;
    expect(data.staffId).toBe(a.id);
    expect(data.openidMasked).toBe('o6_b********************fL2M');
    const [row] = await db().select().from(staff).where(eq(staff.id, a.id));
    expect(row!.wechatOpenidEnc).not.toContain(openid);
    expect(decryptField(ctx.app.services.keys.ring, row!.wechatOpenidEnc!)).toBe(openid);
    expect(row!.wechatOpenidHash).toBe(blindIndex(ctx.app.services.keys.ring, 'wechat-openid', openid));
    expect(row!.wechatBoundAt?.toISOString()).toBe(data.boundAt);
    // The binding is in the audit log, the openid masked.
    const audits = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'staff'), eq(auditLog.entityId, String(a.id))));
    expect(audits.map((e) => e.action)).toEqual(['bind-wechat']);
    expect(JSON.stringify(audits[0]!.after)).not.toContain(openid);
    // Binding the same openid again is fine.
    expect((await bind(openid, a.token)).statusCode).toBe(200);

    // Another staff member cannot take it.
    const b = await staffToken('admin');
    const taken = await bind(openid, b.token);
    expect(taken.statusCode).toBe(403);
    expect(body(taken).msg).toBe('该微信已绑定其他员工账号，请先在原账号解绑后再绑定');
    const [rowB] = await db().select().from(staff).where(eq(staff.id, b.id));
    expect(rowB!.wechatOpenidHash).toBeNull();
    expect((await bind('o6_bmjrPTlm6_2sgVt7hMZOPfOTHER', b.token)).statusCode).toBe(200);
  });

  it('is staff-only and validates the openid', async () => {
    expect((await bind('o6_bmjrPTlm6_2sgVt7hMZOPfL2M')).statusCode).toBe(401);
    const user = await loginAs(ctx.app);
    expect((await bind('o6_bmjrPTlm6_2sgVt7hMZOPfL2M', user.token)).statusCode).toBe(401);
    const a = await staffToken('admin');
    const bad = await bind('short', a.token);
    expect(bad.statusCode).toBe(400);
    expect(body(bad).msg).toContain('openid');
  });
});

describe(`OpenAPI (${BACKEND})`, () => {
  it('documents the site calls', async () => {
    const doc = (await ctx.app.inject({ url: '/api/docs/json' })).json() as {
      paths: Record<string, unknown>;
    };
    for (const path of [
      '/api/appVersion/newestVersion',
      '/api/reportUserDownloadApp',
      '/api/banner/homeDialogBanner',
      '/api/pageConfig/getPageConfigByCode',
      '/api/pageConfig/getAppIndexIconList',
      '/api/common/temp/link',
      '/api/report/type',
      '/api/report/click',
      '/api/report/h5device',
      '/api/report/log',
      '/api/user/info/log',
      '/api/crm/admin/org/employee/wechat/bindOpenid',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
  });
});
