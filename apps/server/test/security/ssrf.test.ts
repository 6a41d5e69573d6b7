import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PartnerItem } from '@lm/shared/schemas/admin-catalog';
import type { AdminLeadDetail, AdminUserDetail } from '@lm/shared/schemas/admin-leads';
import { count, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.ts';
import { leadAttempts, leads, partnerNoticeAttempts, partnerNotices, partners } from '../../src/db/schema.ts';
import { DEMO_PARTNERS } from '../../src/modules/products/seed.ts';
import { consentToApiOffers, saveForm } from '../fixtures.ts';
import { BACKEND, body, createTestApp, loginAs, type TestContext } from '../helpers.ts';
import { LocalPartner } from '../partner-server.ts';
import { staffLogin } from './fixtures.ts';

/**
 * Issue 15, server-side request forgery through partner endpoints: the console refuses endpoints on
 * internal addresses (any spelling, any DNS answer), the delivery client checks the address it dials,
 * never follows a redirect, stores no answer, and only administrators see why an attempt failed.
 */

/** A local HTTP server that counts TCP connections and requests. */
class Counted {
  connections = 0;
  readonly requests: string[] = [];
  private readonly server: Server;
  constructor(handler: (url: string, res: ServerResponse) => void) {
    this.server = createServer((req, res) => {
      this.requests.push(req.url ?? '/');
      req.resume();
      req.on('end', () => handler(req.url ?? '/', res));
    });
    this.server.on('connection', () => {
      this.connections++;
    });
  }
  start = () => new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
  get port() {
    return (this.server.address() as AddressInfo).port;
  }
  get origin() {
    return `http://127.0.0.1:${this.port}`;
  }
  stop = () =>
    new Promise<void>((r) => {
      this.server.closeAllConnections();
      this.server.close(() => r());
    });
}

/** Plays an internal service (instance metadata): must never be reached. */
const internal = new Counted((_url, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{"AccessKeyId":"ASIA-INTERNAL-LEAK","SecretAccessKey":"internal-secret"}');
});
/** A public-looking lender that answers 307 to the internal service, or 500 with a body to echo. */
const redirector = new Counted((url, res) => {
  if (url.startsWith('/fail')) {
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end('{"error":"ASIA-ECHO-LEAK","trace":"\\u0007 at /srv/app.js"}');
    return;
  }
  res.writeHead(307, {
    location: `${internal.origin}/latest/meta-data/iam/security-credentials/`,
    'content-type': 'application/json',
  });
  res.end('{"moved":"ASIA-REDIRECT-LEAK"}');
});
const SECRETS = new Map(DEMO_PARTNERS.map((p) => [p.code, p.signingSecret!]));
/** A lender that works: the baseline every scenario starts from. */
const good = new LocalPartner((path) => SECRETS.get(path.split('/')[1] ?? '') ?? 'unknown');
const SANDBOX_PORT = 18_080;

/** The test's DNS: names are looked up here only (no test depends on real DNS). */
const dns = new Map<string, string[]>([
  ['lender.example.com', ['93.184.215.14']],
  ['internal.example.com', ['10.0.0.5']],
  ['mixed.example.com', ['93.184.215.14', '169.254.169.254']],
  ['rebind.example.com', ['93.184.215.14']],
]);

let ctx: TestContext;
const tokens = { admin: '', operator: '', viewer: '', partner: '' };

beforeAll(async () => {
  await Promise.all([internal.start(), redirector.start(), good.start()]);
  ctx = await createTestApp({
    env: {
      DELIVERY_TIMEOUT_MS: '1000',
      DELIVERY_BACKOFF_BASE_MS: '10',
      DELIVERY_BACKOFF_MAX_MS: '20',
      DELIVERY_MAX_ATTEMPTS: '2',
      // The sandbox on this server's own address is allowed (outside production); it must not open
      // the loopback in general.
      PARTNER_SANDBOX: 'on',
      PORT: String(SANDBOX_PORT),
      // Even allow-listed, the internal server is reached by no redirect: the client never follows one.
      PARTNER_TEST_ORIGINS: [good.url, redirector.origin, internal.origin].join(','),
    },
  });
  ctx.app.services.partnerHttp.policy.resolve = async (host) => {
    const answer = dns.get(host);
    if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return answer;
  };
  await pointAll({ apiEndpoint: `${good.url}/{code}/leads` });
  tokens.admin = (await staffLogin(ctx.app, 'admin')).token;
  tokens.operator = (await staffLogin(ctx.app, 'operator')).token;
  tokens.viewer = (await staffLogin(ctx.app, 'viewer')).token;
  tokens.partner = (await staffLogin(ctx.app, 'channel_partner', ['demo'])).token;
});
afterAll(async () => {
  await ctx?.close();
  await Promise.all([internal.stop(), redirector.stop(), good.stop()]);
});
afterEach(async () => {
  dns.set('rebind.example.com', ['93.184.215.14']);
  await pointAll({ apiEndpoint: `${good.url}/{code}/leads` });
});

const db = () => ctx.app.database.db;
const call = (role: keyof typeof tokens, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: { accesstoken: tokens[role] }, ...(payload ? { payload } : {}) });

/** Points every demo lender's endpoints straight in the database ({code}: the lender's code). */
async function pointAll(e: { apiEndpoint: string; dupCheckEndpoint?: string | null }) {
  for (const p of DEMO_PARTNERS) {
    await db()
      .update(partners)
      .set({
        apiEndpoint: e.apiEndpoint.replace('{code}', p.code),
        dupCheckEndpoint: e.dupCheckEndpoint?.replace('{code}', p.code) ?? null,
      })
      .where(eq(partners.code, p.code));
  }
  ctx.app.services.matching.invalidateCatalog();
}

/** The console's PUT body of a lender, with `patch`. */
async function partnerBody(id: number, patch: Record<string, unknown>) {
  const p = body<PartnerItem>(await call('admin', 'GET', `/api/admin/partners/${id}`)).data;
  return {
    legalName: p.legalName,
    licenceNumber: p.licenceNumber,
    contactName: p.contactName,
    apiEndpoint: p.apiEndpoint,
    dupCheckEndpoint: p.dupCheckEndpoint,
    allowedHosts: p.allowedHosts,
    deliveryModes: p.deliveryModes,
    status: p.status,
    ...patch,
  };
}

/** A person who consents to every API lender offered: their uid and lead ids. */
async function consentingPerson() {
  const { token, uid } = await loginAs(ctx.app);
  const { offers, auth } = await consentToApiOffers(ctx.app, token);
  expect(offers.length, 'the sample form matches an API lender').toBeGreaterThan(0);
  expect(auth.statusCode, auth.body).toBe(200);
  const rows = await db().select({ id: leads.id }).from(leads).where(eq(leads.userId, uid));
  return { token, uid, leadIds: rows.map((r) => r.id) };
}

/** Worker rounds until none of `ids` is pending (waiting out the short backoffs). */
async function settle(ids: number[], table: typeof leads | typeof partnerNotices = leads) {
  const until = Date.now() + 15_000;
  for (;;) {
    await ctx.app.services.delivery.runOnce();
    const rows = await db().select({ status: table.status }).from(table).where(inArray(table.id, ids));
    if (rows.every((r) => r.status !== 'pending')) return;
    if (Date.now() > until) throw new Error('still pending');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe(`saving partner endpoints (${BACKEND})`, () => {
  const newPartner = {
    code: 'ssrf-lender',
    legalName: '测试消费金融有限公司',
    licenceNumber: '金融许可证 S0009H000000001',
    contactName: '钱经理',
    contactPhone: '13811113333',
    allowedHosts: ['lender.example.com'],
    deliveryModes: { '2': 'api' },
  };
  const create = (patch: Record<string, unknown>) =>
    call('operator', 'POST', '/api/admin/partners', { ...newPartner, ...patch });

  const REFUSED: [string, string][] = [
    // The endpoints.
    ['https://169.254.169.254/latest/meta-data/', '不能指向云服务器元数据地址（169.254.169.254）'],
    ['https://10.0.0.5/leads', '不能指向内网地址（10.0.0.5）'],
    ['https://metadata.google.internal/computeMetadata/v1/', '不能指向云服务器元数据服务'],
    ['http://2130706433/leads', '必须使用 https 地址'],
    // The same in https and in other spellings and families.
    ['https://2130706433/leads', '不能指向本机回环地址（127.0.0.1）'],
    ['https://0x7f.1/leads', '不能指向本机回环地址（127.0.0.1）'],
    ['https://017700000001/leads', '不能指向本机回环地址（127.0.0.1）'],
    ['https://127.1/leads', '不能指向本机回环地址（127.0.0.1）'],
    ['https://[::1]/leads', '不能指向本机回环地址（::1）'],
    ['https://[::ffff:169.254.169.254]/leads', '不能指向云服务器元数据地址'],
    ['https://[::ffff:a9fe:a9fe]/leads', '不能指向云服务器元数据地址'],
    ['https://[fd00::1]/leads', '不能指向内网地址（fd00::1）'],
    ['https://[fe80::1]/leads', '不能指向链路本地地址'],
    ['https://100.100.100.200/latest/meta-data/', '不能指向云服务器元数据地址（100.100.100.200）'],
    ['https://100.64.0.1/leads', '不能指向运营商共享地址'],
    ['https://172.16.0.1/leads', '不能指向内网地址'],
    ['https://192.168.1.1/leads', '不能指向内网地址'],
    ['https://224.0.0.1/leads', '不能指向组播地址'],
    ['https://0.0.0.0/leads', '不能指向未指定地址'],
    ['https://localhost/leads', '不能指向本机（localhost）'],
    ['https://metadata/computeMetadata/v1/', '必须使用完整的公网域名（metadata）'],
    ['https://metadata.tencentyun.com/latest/meta-data/', '不能指向云服务器元数据服务'],
    // Names whose DNS answer is internal, or does not exist.
    [
      'https://internal.example.com/leads',
      '的域名解析到了内网地址（internal.example.com → 10.0.0.5），不能使用',
    ],
    ['https://mixed.example.com/leads', '的域名解析到了云服务器元数据地址'],
    ['https://nowhere.example.com/leads', '的域名无法解析（nowhere.example.com），请确认域名已生效'],
    // Any loopback was enough outside production until now; the sandbox entry is its paths only.
    ['http://127.0.0.1:9999/leads', '必须使用 https 地址'],
    [`http://127.0.0.1:${SANDBOX_PORT}/api/admin/staff`, '必须使用 https 地址'],
  ];

  it.each(REFUSED)('refuses %s as lead endpoint and as pre-check endpoint', async (url, text) => {
    for (const [field, label] of [
      ['apiEndpoint', '线索推送地址'],
      ['dupCheckEndpoint', '查重地址'],
    ] as const) {
      const res = await create({ [field]: url });
      expect(res.statusCode, res.body).toBe(400);
      const { code, msg, data } = body<{ fields: { field: string; message: string }[] }>(res);
      expect(code).toBe(400);
      expect(msg.startsWith(label), msg).toBe(true);
      expect(msg).toContain(text);
      // The envelope names the field with the reason, so the console marks that field (issue 44.15).
      expect(data).toEqual({ fields: [{ field, message: msg }] });
    }
    const [{ n } = { n: 0 }] = await db()
      .select({ n: count() })
      .from(partners)
      .where(eq(partners.code, newPartner.code));
    expect(Number(n)).toBe(0);
  });

  it('refuses them on an edit too, and keeps the lender as it was', async () => {
    const [p] = await db().select().from(partners).where(eq(partners.code, DEMO_PARTNERS[0]!.code));
    for (const [url, text] of [
      ['https://10.0.0.5/leads', '线索推送地址不能指向内网地址（10.0.0.5）'],
      ['https://internal.example.com/x', '线索推送地址的域名解析到了内网地址'],
    ] as const) {
      const res = await call(
        'admin',
        'PUT',
        `/api/admin/partners/${p!.id}`,
        await partnerBody(p!.id, { apiEndpoint: url }),
      );
      expect(res.statusCode, res.body).toBe(400);
      expect(body(res).msg).toContain(text);
      expect(body(res).data).toEqual({ fields: [{ field: 'apiEndpoint', message: body(res).msg }] });
    }
    const [after] = await db().select().from(partners).where(eq(partners.id, p!.id));
    expect(after!.apiEndpoint).toBe(p!.apiEndpoint);
  });

  it('accepts a public https lender, and the sandbox on this server’s own address outside production', async () => {
    const ok = await create({
      apiEndpoint: 'https://lender.example.com/leads',
      dupCheckEndpoint: 'https://lender.example.com:8443/dup-check',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    for (const host of ['127.0.0.1', 'localhost']) {
      const sandbox = await create({
        code: `ssrf-sandbox-${host === 'localhost' ? 'l' : 'n'}`,
        apiEndpoint: `http://${host}:${SANDBOX_PORT}/api/dev/partner-sandbox/partner-a/leads`,
        dupCheckEndpoint: `http://${host}:${SANDBOX_PORT}/api/dev/partner-sandbox/partner-a/dup-check`,
      });
      expect(sandbox.statusCode, sandbox.body).toBe(200);
    }
  });
});

describe(`delivering to partners (${BACKEND})`, () => {
  it('a name allowed at save that now resolves to an internal address is refused when connecting: nothing sent', async () => {
    // Saved through the console while the name pointed at a public address …
    const [p] = await db().select().from(partners).where(eq(partners.code, DEMO_PARTNERS[0]!.code));
    const rebind = `https://rebind.example.com:${internal.port}/leads`;
    const saved = await call(
      'admin',
      'PUT',
      `/api/admin/partners/${p!.id}`,
      await partnerBody(p!.id, { apiEndpoint: rebind }),
    );
    expect(saved.statusCode, saved.body).toBe(200);
    await pointAll({ apiEndpoint: rebind });
    // … then its DNS answer changed to the loopback, where an internal service listens.
    dns.set('rebind.example.com', ['127.0.0.1']);
    const { leadIds } = await consentingPerson();
    await settle(leadIds);

    expect(internal.connections).toBe(0);
    expect(internal.requests).toEqual([]);
    const rows = await db().select().from(leads).where(inArray(leads.id, leadIds));
    expect(rows.every((l) => l.status === 'dead' && l.attempts === 2)).toBe(true);
    const attempts = await db().select().from(leadAttempts).where(inArray(leadAttempts.leadId, leadIds));
    expect(attempts.length).toBe(leadIds.length * 2);
    for (const a of attempts) {
      expect(a).toMatchObject({ httpStatus: null, error: '目标地址属于本机回环地址，已拒绝连接' });
    }
  });

  it('a lender that answers 307 gets nothing more: the target of the redirect receives nothing', async () => {
    await pointAll({ apiEndpoint: `${redirector.origin}/leads` });
    const before = redirector.requests.length;
    const { leadIds } = await consentingPerson();
    await settle(leadIds);

    expect(internal.requests).toEqual([]);
    expect(internal.connections).toBe(0);
    // Each try reached the lender once (2 tries), and went nowhere else.
    expect(redirector.requests.length - before).toBe(leadIds.length * 2);
    const rows = await db().select().from(leads).where(inArray(leads.id, leadIds));
    for (const lead of rows) {
      expect(lead).toMatchObject({ status: 'dead', lastError: '机构返回重定向（HTTP 307），已拒绝跟随' });
    }
    const attempts = await db().select().from(leadAttempts).where(inArray(leadAttempts.leadId, leadIds));
    expect(attempts.map((a) => [a.httpStatus, a.outcome]).sort()).toEqual(
      leadIds
        .flatMap(() => [
          [307, 'dead'],
          [307, 'retry'],
        ])
        .sort(),
    );
    expect(JSON.stringify(attempts)).not.toMatch(/LEAK|meta-data/);
  });

  it('a duplicate pre-check answered with 307 is not followed (the lender is kept), nor one that now resolves inwards', async () => {
    const kept = async () => {
      const { token } = await loginAs(ctx.app);
      return (await saveForm(ctx.app, token)).offers.filter((o) => [2, 6].includes(o.linkType));
    };
    await pointAll({
      apiEndpoint: `${good.url}/{code}/leads`,
      dupCheckEndpoint: `${redirector.origin}/dup-check`,
    });
    const before = redirector.requests.filter((u) => u === '/dup-check').length;
    expect((await kept()).length, 'an offer of a lender with a pre-check').toBeGreaterThan(0);
    expect(redirector.requests.filter((u) => u === '/dup-check').length).toBeGreaterThan(before);
    await pointAll({
      apiEndpoint: `${good.url}/{code}/leads`,
      dupCheckEndpoint: `https://rebind.example.com:${internal.port}/dup-check`,
    });
    dns.set('rebind.example.com', ['127.0.0.1']);
    expect((await kept()).length).toBeGreaterThan(0);
    expect(internal.requests).toEqual([]);
    expect(internal.connections).toBe(0);
  });

  it('a withdrawal notice answered with 307 is a failed attempt; the redirect target receives nothing', async () => {
    const { token, leadIds } = await consentingPerson();
    await settle(leadIds);
    const [lead] = await db().select().from(leads).where(eq(leads.id, leadIds[0]!));
    expect(lead!.status).toBe('delivered');
    await pointAll({ apiEndpoint: `${redirector.origin}/leads` });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/user/data-sharing/withdraw',
      payload: { partnerId: lead!.partnerId },
      headers: { accesstoken: token },
    });
    expect(res.statusCode, res.body).toBe(200);
    const notices = await db()
      .select()
      .from(partnerNotices)
      .where(eq(partnerNotices.partnerId, lead!.partnerId));
    const mine = notices.filter((n) => n.leadKeys.includes(lead!.idempotencyKey));
    expect(mine).toHaveLength(1);
    await settle([mine[0]!.id], partnerNotices);
    const attempts = await db()
      .select()
      .from(partnerNoticeAttempts)
      .where(eq(partnerNoticeAttempts.noticeId, mine[0]!.id));
    expect(attempts.map((a) => [a.httpStatus, a.outcome, a.error])).toEqual([
      [307, 'retry', '机构返回重定向（HTTP 307），已拒绝跟随'],
      [307, 'dead', '机构返回重定向（HTTP 307），已拒绝跟随'],
    ]);
    expect(internal.requests).toEqual([]);
  });
});

describe(`what is stored and shown of an attempt (${BACKEND})`, () => {
  it('no answer is stored; why an attempt failed is shown to administrators only', async () => {
    const columns = rowsOf<{ table_name: string; column_name: string }>(
      await db().execute(sql`select table_name, column_name from information_schema.columns
        where table_schema = current_schema() and table_name in ('lead_attempts', 'partner_notice_attempts')`),
    );
    expect(columns.length).toBeGreaterThan(0);
    expect(columns.filter((c) => c.column_name === 'response')).toEqual([]);

    await pointAll({ apiEndpoint: `${redirector.origin}/fail` });
    const { uid, leadIds } = await consentingPerson();
    await settle(leadIds);
    const stored = await db().select().from(leadAttempts).where(inArray(leadAttempts.leadId, leadIds));
    expect(stored.every((a) => a.httpStatus === 500 && a.error === 'HTTP 500')).toBe(true);
    const leadRows = await db().select().from(leads).where(inArray(leads.id, leadIds));
    expect(JSON.stringify([stored, leadRows])).not.toContain('LEAK');

    const leadUrl = `/api/admin/leads/${leadIds[0]}`;
    const userUrl = `/api/admin/users/${uid}`;
    const admin = body<AdminLeadDetail>(await call('admin', 'GET', leadUrl)).data;
    expect(admin.attemptList.map((a) => [a.httpStatus, a.outcome, a.error])).toEqual([
      [500, 'retry', 'HTTP 500'],
      [500, 'dead', 'HTTP 500'],
    ]);
    const adminUser = body<AdminUserDetail>(await call('admin', 'GET', userUrl)).data;
    expect(adminUser.leads[0]!.attemptList.every((a) => a.error === 'HTTP 500')).toBe(true);
    for (const role of ['operator', 'viewer'] as const) {
      const lead = await call(role, 'GET', leadUrl);
      expect(lead.statusCode).toBe(200);
      const d = body<AdminLeadDetail>(lead).data;
      expect(d.attemptList.map((a) => [a.httpStatus, a.outcome, a.error])).toEqual([
        [500, 'retry', null],
        [500, 'dead', null],
      ]);
      const u = body<AdminUserDetail>(await call(role, 'GET', userUrl)).data;
      expect(u.leads.flatMap((l) => l.attemptList).every((a) => a.error === null)).toBe(true);
    }
    expect((await call('partner', 'GET', leadUrl)).statusCode).toBe(403);
    for (const res of [await call('admin', 'GET', leadUrl), await call('viewer', 'GET', userUrl)]) {
      expect(res.body).not.toContain('LEAK');
      expect(res.body).not.toContain('"response"');
    }
  });
});
