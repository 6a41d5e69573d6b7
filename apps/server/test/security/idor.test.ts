import { shanghaiDate } from '@lm/shared/time';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.ts';
import { consents, leads } from '../../src/db/schema.ts';
import { FORM } from '../fixtures.ts';
import { BACKEND, body, createTestApp, loginAs, newIp, post, type TestContext } from '../helpers.ts';
import { expectEnvelope, staffLogin } from './fixtures.ts';

/**
 * IDOR (issue 8): person B holds a valid token and A's ids (consent, lender, match, product, file
 * key) and tries every id-taking call. B never reads or changes anything of A's. Console calls
 * with ids of things that do not exist answer 404, never 500.
 */
let ctx: TestContext;
let app: FastifyInstance;
interface Person {
  phone: string;
  token: string;
  uid: number;
}
let a: Person;
let b: Person;
let aConsents: { id: number; productId: number; partnerId: number; matchId: number | null }[];
let aFileUrl: string;
let adminToken: string;

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0 idor')]);
const auth = (token: string) => ({ accesstoken: token });
const get = (url: string, token?: string) =>
  app.inject({ method: 'GET', url, headers: token ? auth(token) : {} });

async function uploadPrivate(token: string): Promise<string> {
  const p = body<{ dir: string; policy: string; accessKeyId: string; signature: string; host: string }>(
    await get('/api/common/upload/policy?image=idcard', token),
  ).data;
  const form = new FormData();
  form.append('key', `${p.dir}Ab3dE91763805600000card.jpg`);
  form.append('policy', p.policy);
  form.append('OSSAccessKeyId', p.accessKeyId);
  form.append('success_action_status', '200');
  form.append('signature', p.signature);
  form.append('Content-Type', 'image/jpeg');
  form.append('file', new Blob([JPEG], { type: 'image/jpeg' }), 'card.jpg');
  const req = new Request('http://localhost/', { method: 'POST', body: form });
  const res = await app.inject({
    method: 'POST',
    url: p.host,
    payload: Buffer.from(await req.arrayBuffer()),
    headers: { 'content-type': req.headers.get('content-type')! },
    remoteAddress: newIp(),
  });
  expect(res.statusCode, res.body).toBe(200);
  return body<{ url: string }>(res).data.url;
}

/** Everything of A's a snapshot can show: consents, leads, draft. */
async function snapshotOf(uid: number) {
  const db = app.database.db;
  return JSON.stringify({
    consents: await db.select().from(consents).where(eq(consents.userId, uid)).orderBy(consents.id),
    leads: await db.select().from(leads).where(eq(leads.userId, uid)).orderBy(leads.id),
    draft: rowsOf(await db.execute(sql`select * from application_drafts where user_id = ${uid}`)),
  });
}

beforeAll(async () => {
  ctx = await createTestApp();
  app = ctx.app;
  a = await loginAs(app);
  b = await loginAs(app);
  const saved = await post(app, '/api/user/info/save', FORM, auth(a.token));
  expect(saved.statusCode, saved.body).toBe(200);
  const r = body<{ id: string | null; mayAuthProductList: { id: string }[] }>(saved).data;
  const ids = [...(r.id ? [r.id] : []), ...r.mayAuthProductList.map((o) => o.id)];
  expect(ids.length, 'FORM matches at least one product').toBeGreaterThan(0);
  const consent = await app.inject({
    method: 'PUT',
    url: '/api/user/info/auth',
    payload: { productIds: ids },
    headers: auth(a.token),
  });
  expect(consent.statusCode, consent.body).toBe(200);
  aConsents = rowsOf<{ id: number; productId: number; partnerId: number; matchId: number | null }>(
    await app.database.db.execute(
      sql`select c.id, c.product_id as "productId", c.partner_id as "partnerId", o.run_id as "matchId"
          from consents c join match_offers o on o.id = c.offer_id where c.user_id = ${a.uid}`,
    ),
  );
  expect(aConsents.length).toBeGreaterThan(0);
  aFileUrl = await uploadPrivate(a.token);
  adminToken = (await staffLogin(app, 'admin')).token;
});
afterAll(async () => ctx?.close());

describe(`IDOR on every id-taking person call (${BACKEND})`, () => {
  it('B cannot read A’s consent text by consentId (404), A can', async () => {
    const consentId = aConsents[0]!.id;
    const own = await get(`/api/user/info/protocol2/getContent?consentId=${consentId}`, a.token);
    expect(own.statusCode, own.body).toBe(200);
    expect(body<{ consentedAt: string | null }>(own).data.consentedAt).not.toBeNull();
    for (const c of aConsents) {
      const other = await get(`/api/user/info/protocol2/getContent?consentId=${c.id}`, b.token);
      expectEnvelope(other);
      expect(other.statusCode).toBe(404);
      const other2 = await get(`/api/user/info/protocol/information-agreement?consentId=${c.id}`, b.token);
      expectEnvelope(other2);
      expect(body<{ consentedAt?: unknown }>(other2).data?.consentedAt ?? null).toBeNull();
    }
  });

  it('B cannot withdraw A’s consent by partnerId, and A’s records are untouched', async () => {
    const before = await snapshotOf(a.uid);
    for (const c of aConsents) {
      const res = await post(
        app,
        '/api/user/data-sharing/withdraw',
        { partnerId: c.partnerId },
        auth(b.token),
      );
      expectEnvelope(res);
      expect(res.statusCode).toBe(404);
    }
    expect(await snapshotOf(a.uid)).toBe(before);
  });

  it('B cannot consent to, apply for or flag A’s match and offers', async () => {
    const before = await snapshotOf(a.uid);
    const matchId = aConsents.find((c) => c.matchId !== null)?.matchId;
    const productIds = aConsents.map((c) => String(c.productId));
    const tries = [
      { method: 'PUT', url: '/api/user/info/auth', payload: { productIds, ...(matchId ? { matchId } : {}) } },
      { method: 'POST', url: '/api/product/apply', payload: { productId: productIds[0] } },
      { method: 'POST', url: '/api/product/apiH5JumpUrlSuccessFlag', payload: { productId: productIds[0] } },
      { method: 'POST', url: '/api/user/info/direct/match', payload: { matchId } },
    ] as const;
    for (const t of tries) {
      const res = await app.inject({ ...t, method: t.method, headers: auth(b.token) });
      expectEnvelope(res);
      // Whatever B may do with its own account, nothing of A's moves and B gets no consent on A's match.
      const onAsMatch = rowsOf(
        await app.database.db.execute(
          sql`select c.id from consents c join match_offers o on o.id = c.offer_id
              where c.user_id = ${b.uid} and o.run_id = ${matchId ?? -1}`,
        ),
      );
      expect(onAsMatch).toEqual([]);
    }
    expect(await snapshotOf(a.uid)).toBe(before);
  });

  it('B’s lists, export, sessions and form show nothing of A’s', async () => {
    const secrets = [a.phone, FORM.realName, FORM.identity].filter(Boolean) as string[];
    for (const url of [
      '/api/user/applications',
      '/api/user/data-sharing',
      '/api/user/sessions',
      '/api/user/export',
      '/api/user/info/form/show',
      '/api/user/info/detail',
      '/api/app/userInfo/baseDetail',
      '/api/getLoginUserInfo',
      '/api/userApi/getUserDetailVO',
      '/api/product/listTodayApplyProduct',
      `/api/getUserLoginVO?uid=${a.uid}`,
    ]) {
      const res = await get(url, b.token);
      expect(res.statusCode, `${url} ${res.body}`).toBeLessThan(500);
      for (const s of secrets) expect(res.body, url).not.toContain(s);
      expect(res.body, url).not.toContain(`${a.phone.slice(0, 3)}****${a.phone.slice(-4)}`); // nor A's masked phone
      for (const c of aConsents) expect(res.body, url).not.toMatch(new RegExp(`"consentId":${c.id}\\b`));
    }
    const applications = body<{ total: number }>(await get('/api/user/applications', b.token)).data;
    expect(applications.total).toBe(0);
  });

  it('another person’s private file is 404, whoever asks without being owner or staff', async () => {
    expect((await get(aFileUrl, a.token)).statusCode).toBe(200);
    for (const token of [undefined, b.token, 'forged-token', `${a.token}x`]) {
      const res = await get(aFileUrl, token);
      expect(res.statusCode).toBe(404);
      expect(body(res)).toMatchObject({ code: 404, msg: '文件不存在' });
    }
    // Guessing around the key: other owner dirs, traversal, encoded slashes.
    const key = aFileUrl.replace('/api/storage/', '');
    for (const url of [
      `/api/storage/${key.replace(`u${a.uid}`, `u${b.uid}`)}`,
      `/api/storage/${key.replace('private/', 'public/')}`,
      `/api/storage/public/../${key}`,
      `/api/storage/${encodeURIComponent(key)}`,
      `/api/storage/${key.replaceAll('/', '%2F')}`,
    ]) {
      const res = await get(url, b.token);
      expectEnvelope(res);
      expect(res.statusCode, url).toBe(404);
    }
  });
});

describe(`console ids of nothing answer 404, never 500 (${BACKEND})`, () => {
  const calls: [string, string, object?][] = [
    ['GET', '/api/admin/users/{id}'],
    ['POST', '/api/admin/users/{id}/reveal', { field: 'mobile', reason: '核实用户身份信息' }],
    ['PUT', '/api/admin/users/{id}/ad-reporting', { objected: true }],
    ['GET', '/api/admin/leads/{id}'],
    ['POST', '/api/admin/leads/{id}/retry', {}],
    ['POST', '/api/admin/leads/{id}/discard', { reason: '测试丢弃原因' }],
    ['GET', '/api/admin/partners/{id}'],
    ['POST', '/api/admin/partners/{id}/rotate-secret', {}],
    ['GET', '/api/admin/products/{id}'],
    ['GET', '/api/admin/products/{id}/prices'],
    [
      'POST',
      '/api/admin/products/{id}/prices',
      { model: 'cpl', amountFen: 100, effectiveFrom: shanghaiDate() },
    ],
    ['POST', '/api/admin/returns/{id}/accept', { note: '核实无误' }],
    ['POST', '/api/admin/returns/{id}/reject', { note: '核实无误' }],
    ['GET', '/api/admin/channels/{id}'],
    ['GET', '/api/admin/channels/{id}/conversion-reports'],
    ['GET', '/api/admin/channels/{id}/costs'],
    [
      'POST',
      '/api/admin/channels/{id}/costs',
      { model: 'cpc', amountFen: 100, effectiveFrom: shanghaiDate() },
    ],
    ['POST', '/api/admin/conversion-reports/{id}/replay', {}],
    ['POST', '/api/admin/privacy/notices/{id}/retry', {}],
    ['POST', '/api/admin/staff/{id}/reset-password', {}],
  ];
  it('unknown numeric ids → 404; odd ids → 400/404; the envelope always', async () => {
    for (const [method, path, payload] of calls) {
      const unknown = await app.inject({
        method: method as 'GET',
        url: path.replace('{id}', '987654'),
        ...(payload ? { payload } : {}),
        headers: auth(adminToken),
      });
      expectEnvelope(unknown);
      expect(unknown.statusCode, `${method} ${path} ${unknown.body}`).toBe(404);
      for (const odd of ['0', '-1', '1.5', 'abc', '99999999999999999999', '1%20or%201%3D1', '%00']) {
        const res = await app.inject({
          method: method as 'GET',
          url: path.replace('{id}', odd),
          ...(payload ? { payload } : {}),
          headers: auth(adminToken),
        });
        expectEnvelope(res);
        expect([400, 404], `${method} ${path} id=${odd} ${res.body}`).toContain(res.statusCode);
      }
    }
  });

  it('statements by party code: unknown codes → 404, odd codes and months → 400/404 (issue 48.5)', async () => {
    const month = '2026-01';
    for (const type of ['lender', 'channel']) {
      const res = await app.inject({
        url: `/api/admin/settlement/statements/${type}/no-such-code?month=${month}`,
        headers: auth(adminToken),
      });
      expectEnvelope(res);
      expect(res.statusCode, res.body).toBe(404);
      for (const odd of ['%00', '..%2F..', 'x'.repeat(65), '1%20or%201%3D1', '%E4%B8%AD']) {
        const r = await app.inject({
          url: `/api/admin/settlement/statements/${type}/${odd}?month=${month}`,
          headers: auth(adminToken),
        });
        expectEnvelope(r);
        expect([400, 404], `${type}/${odd} ${r.body}`).toContain(r.statusCode);
      }
    }
    for (const url of [
      '/api/admin/settlement/statements/bank/demo?month=2026-01',
      '/api/admin/settlement/statements/lender/demo?month=2026-1',
      '/api/admin/settlement/statements/lender/demo',
    ]) {
      const r = await app.inject({ url, headers: auth(adminToken) });
      expectEnvelope(r);
      expect(r.statusCode, url).toBe(400);
    }
    for (const odd of ['2026-13', '2026-00', '0', 'abc', '99999999999999999999']) {
      const r = await app.inject({
        method: 'POST',
        url: `/api/admin/settlement/months/${odd}/close`,
        payload: {},
        headers: auth(adminToken),
      });
      expectEnvelope(r);
      expect(r.statusCode, `${odd} ${r.body}`).toBe(400);
    }
    for (const payload of [
      { partyType: 'lender', partyCode: 'no-such-code', amountFen: 100, reason: '测试调整' },
      { partyType: 'channel', partyCode: 'no-such-code', amountFen: 100, reason: '测试调整' },
    ]) {
      const r = await app.inject({
        method: 'POST',
        url: '/api/admin/settlement/adjustments',
        payload,
        headers: auth(adminToken),
      });
      expectEnvelope(r);
      expect(r.statusCode, r.body).toBe(404);
    }
  });

  it('a person’s own id-taking reads answer 404 for ids of nothing', async () => {
    for (const url of [
      '/api/user/info/protocol2/getContent?consentId=987654',
      '/api/news/987654',
      '/api/user/info/protocol/no-such-agreement',
      '/api/product/detail?productId=987654',
    ]) {
      const res = await get(url, b.token);
      expectEnvelope(res);
      expect(res.statusCode, `${url} ${res.body}`).toBe(404);
    }
  });
});
