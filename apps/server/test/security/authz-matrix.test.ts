import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, staffSessions } from '../../src/db/schema.ts';
import { BACKEND, body, createTestApp, loginAs, type TestContext } from '../helpers.ts';
import { expectEnvelope, staffLogin } from './fixtures.ts';

/**
 * Authorisation matrix (issue 8). Every route of the OpenAPI document has a class; a route without
 * one fails the test, so a new endpoint forces a decision. Each authenticated route is then called
 * with every kind of caller that must be refused.
 */
type Access =
  | 'public' // anyone
  | 'dev' // dev-only helper (not registered in production)
  | 'user' // requireUser
  | 'staffAny' // any console account, channel partners included (logout, me, WeChat binding)
  | 'staffRead' // admin / operator / viewer
  | 'staffWrite' // admin / operator
  | 'adminOnly' // admin
  | 'funnel' // admin / operator / viewer / channel_partner (own channels only)
  | 'userOrStaff' // a person's token or a console token (upload policy: crm-idcard is for staff)
  | 'files'; // stored files: public ones to anyone, private ones to the owner or admin/operator (idor, uploads tests)

const ACCESS: Record<string, Access> = {
  'POST /api/login/sendPhoneVerifyCode': 'public',
  'POST /api/login': 'public',
  'GET /api/getEncryptionMobile': 'public',
  'POST /api/upStreamUnionLogin/checkMobileLogin': 'public',
  'POST /api/logout': 'user',
  'GET /api/getLoginUserInfo': 'user',
  'GET /api/getUserLoginVO': 'user',
  'GET /api/userApi/getUserDetailVO': 'user',
  'POST /api/cancellation/sendPhoneVerifyCode': 'user',
  'POST /api/cancellation': 'user',
  'POST /api/crm/admin/login/sendPhoneVerifyCode': 'public',
  'POST /api/crm/admin/login': 'public',
  'POST /api/crm/admin/logout': 'staffAny',
  'GET /api/admin/staff': 'adminOnly',
  'POST /api/admin/staff': 'adminOnly',
  'PUT /api/admin/staff/{id}': 'adminOnly',
  'PUT /api/admin/staff/{id}/status': 'adminOnly',
  'POST /api/admin/staff/{id}/reset-password': 'adminOnly',
  'GET /api/admin/me': 'staffAny',
  'GET /api/getAdChannel': 'public',
  'GET /api/adChannel/plan/adChannelCode': 'public',
  'GET /api/adChannel/exchange/adChannelCode': 'public',
  'GET /api/adChannel/h5Config': 'public',
  'GET /api/reportAdChannelClick': 'public',
  'POST /api/report/event': 'public',
  'GET /api/third/baiduMap/excludeCity': 'public',
  'POST /api/reportDevice': 'public',
  'GET /api/user/health': 'public',
  'GET /api/dev/sms-outbox': 'dev',
  'GET /api/dev/encrypt-mobile': 'dev',
  'GET /api/dev/ad-clicks': 'dev',
  'POST /api/dev/ad-sandbox/oceanengine/api/v2/conversion': 'dev',
  'GET /api/dev/ad-sandbox/kuaishou/track/activate': 'dev',
  'POST /api/dev/ad-sandbox/baidu/ocpcapi/api/uploadConvertData': 'dev',
  'POST /api/dev/ad-sandbox/baidu/ocpcapi/api/uploadInvalidConvertData': 'dev',
  'POST /api/dev/ad-sandbox/tencent/v1.3/user_actions/add': 'dev',
  'GET /api/dev/ad-sandbox/{platform}/events': 'dev',
  'POST /api/user/info/tempSave': 'user',
  'POST /api/user/info/identityNameVerify': 'user',
  'GET /api/user/info/form/show': 'user',
  'GET /api/user/info/detail': 'user',
  'GET /api/user/info/status/result': 'user',
  'GET /api/user/info/verifiedIdentity': 'user',
  'GET /api/app/userInfo/userFormConfig': 'user',
  'POST /api/user/info/save': 'user',
  'POST /api/user/info/direct/match': 'user',
  'GET /api/user/info/match/{matchKey}': 'user',
  'PUT /api/user/info/auth': 'user',
  'GET /api/user/info/protocol/{id}': 'public',
  'GET /api/user/info/protocol2/getContent': 'user',
  'POST /api/partner/callback': 'public', // signed by the partner's secret, checked in the handler
  'POST /api/partner/outcomes': 'public', // signed by the lender's secret, checked in the handler
  'POST /api/dev/partner-sandbox/{code}/outcomes': 'dev',
  'POST /api/partner/returns': 'public', // signed by the lender's secret, checked in the handler (issue 48.4)
  'POST /api/dev/partner-sandbox/{code}/returns': 'dev',
  'POST /api/dev/partner-sandbox/{code}/statuses': 'dev',
  'POST /api/dev/partner-sandbox/{code}/status-query': 'dev',
  'GET /api/product/topRecommend': 'public',
  'GET /api/product/productList': 'public',
  'GET /api/product/detail': 'public',
  'GET /api/product/randomRecommend': 'public',
  'GET /api/product/columnRecommendProductList': 'public',
  'GET /api/product/h5product/union': 'public',
  'GET /api/product/listTodayApplyProduct': 'user',
  'POST /api/product/apply': 'user',
  'POST /api/product/apiH5JumpUrlSuccessFlag': 'user',
  'GET /api/reportProductExposure': 'public',
  'GET /api/agent/get': 'public',
  'GET /api/common/upload/policy': 'userOrStaff',
  'GET /api/storage/{*}': 'files',
  'POST /api/storage': 'public', // authorised by the signed policy in the form (uploads.test.ts)
  'GET /api/app/userInfo/baseDetail': 'user',
  'POST /api/app/userInfo/baseTempSave': 'user',
  'POST /api/app/userInfo/getOcrResultByIDCardPic': 'user',
  'POST /api/app/userInfo/faceVerify': 'user',
  'POST /api/user/info/faceVerify': 'user',
  'GET /api/user/sessions': 'user',
  'POST /api/user/sessions/logout-all': 'user',
  'GET /api/user/applications': 'user',
  'GET /api/user/data-sharing': 'user',
  'POST /api/user/data-sharing/withdraw': 'user',
  'GET /api/user/export': 'user',
  'GET /api/admin/privacy/deletions': 'staffRead',
  'POST /api/admin/privacy/notices/{id}/retry': 'staffWrite',
  'GET /api/agreement/{code}': 'public',
  'GET /api/agreement/{code}/versions': 'public',
  'GET /api/content/operator': 'public',
  'GET /api/news': 'public',
  'GET /api/news/{id}': 'public',
  'GET /api/appVersion/newestVersion': 'public',
  'GET /api/storage/public/app/download.json': 'public',
  'GET /api/reportUserDownloadApp': 'public',
  'GET /api/banner/homeDialogBanner': 'public',
  'GET /api/pageConfig/getPageConfigByCode': 'public',
  'GET /api/pageConfig/getAppIndexIconList': 'public',
  'GET /api/common/temp/link': 'public',
  'GET /api/common/temp/link/open': 'public',
  'POST /api/report/type': 'public',
  'POST /api/report/click': 'public',
  'PUT /api/report/h5device': 'public',
  'POST /api/report/log': 'public',
  'GET /api/user/info/log': 'user',
  'PUT /api/crm/admin/org/employee/wechat/bindOpenid': 'staffAny',
  'GET /api/admin/channels': 'staffRead',
  'POST /api/admin/channels': 'staffWrite',
  'POST /api/admin/channels/preview': 'staffRead',
  'GET /api/admin/channels/{id}': 'staffRead',
  'PUT /api/admin/channels/{id}': 'staffWrite',
  'PUT /api/admin/channels/{id}/status': 'staffWrite',
  'GET /api/admin/channels/{id}/conversions': 'staffRead',
  'PUT /api/admin/channels/{id}/conversions': 'staffWrite',
  // and a channel partner for its own channels (conversion-reports-admin.test.ts); this one's has none
  'GET /api/admin/channels/{id}/conversion-reports': 'staffRead',
  'POST /api/admin/conversion-reports/{id}/replay': 'staffWrite',
  'POST /api/admin/channels/{id}/route-codes': 'staffWrite',
  'PUT /api/admin/channels/{id}/route-codes/{routeCode}': 'staffWrite',
  'DELETE /api/admin/channels/{id}/route-codes/{routeCode}': 'staffWrite',
  'GET /api/admin/route-code-misses': 'staffRead',
  'GET /api/admin/operators': 'staffRead',
  'GET /api/admin/operators/choices': 'staffRead',
  'GET /api/admin/operators/{id}': 'staffRead',
  'POST /api/admin/operators': 'staffWrite',
  'PUT /api/admin/operators/{id}': 'staffWrite',
  'GET /api/admin/partners': 'staffRead',
  'POST /api/admin/partners': 'staffWrite',
  'GET /api/admin/partners/{id}': 'staffRead',
  'PUT /api/admin/partners/{id}': 'staffWrite',
  'POST /api/admin/partners/{id}/rotate-secret': 'staffWrite',
  'GET /api/admin/partners/{id}/outcomes': 'staffRead',
  'POST /api/admin/partners/{id}/outcomes/reconcile': 'staffWrite',
  'GET /api/admin/products': 'staffRead',
  'POST /api/admin/products': 'staffWrite',
  'GET /api/admin/products/{id}': 'staffRead',
  'PUT /api/admin/products/{id}': 'staffWrite',
  'PUT /api/admin/products/{id}/status': 'staffWrite',
  'GET /api/admin/products/{id}/prices': 'staffRead', // a viewer without amounts (product-prices.test.ts)
  'POST /api/admin/products/{id}/prices': 'adminOnly',
  // Lead returns (issue 48.4): a viewer without amounts (lead-returns.test.ts).
  'GET /api/admin/returns': 'staffRead',
  'POST /api/admin/returns/{id}/accept': 'staffWrite',
  'POST /api/admin/returns/{id}/reject': 'staffWrite',
  'GET /api/admin/channels/{id}/costs': 'staffRead', // a viewer without amounts (channel-costs.test.ts)
  'POST /api/admin/channels/{id}/costs': 'adminOnly',
  'GET /api/admin/spend-imports': 'staffRead', // a viewer without totals (spend-import.test.ts)
  'POST /api/admin/spend-imports/preview': 'staffWrite',
  'POST /api/admin/spend-imports': 'staffWrite',
  // Statements (issue 48.5): a viewer without amounts, a channel partner its own channels only (settlement.test.ts).
  'GET /api/admin/settlement/statements': 'funnel',
  'GET /api/admin/settlement/statements.csv': 'funnel',
  'GET /api/admin/settlement/statements/{partyType}/{code}': 'funnel',
  'POST /api/admin/settlement/months/{month}/close': 'adminOnly',
  'POST /api/admin/settlement/adjustments': 'adminOnly',
  'POST /api/admin/settlement/payouts': 'adminOnly',
  'POST /api/admin/rule-tester': 'staffRead',
  'GET /api/admin/users': 'staffRead',
  'GET /api/admin/users/{id}': 'staffRead',
  'POST /api/admin/users/{id}/reveal': 'staffWrite',
  'PUT /api/admin/users/{id}/ad-reporting': 'staffWrite',
  'GET /api/admin/leads': 'staffRead',
  'GET /api/admin/leads/{id}': 'staffRead',
  'POST /api/admin/leads/{id}/retry': 'staffWrite',
  'POST /api/admin/leads/{id}/discard': 'staffWrite',
  'POST /api/admin/leads/retry-dead': 'staffWrite',
  'GET /api/admin/deliveries/summary': 'staffRead',
  'GET /api/admin/audit-log': 'staffRead',
  'GET /api/admin/audit-log/facets': 'staffRead',
  'GET /api/admin/funnel': 'funnel',
  'GET /api/admin/funnel/trend': 'funnel',
  'GET /api/admin/funnel/by-channel': 'funnel',
  'GET /api/admin/funnel/arms': 'funnel',
  'GET /api/admin/funnel/channels': 'funnel',
  'GET /api/admin/roi': 'staffRead', // a viewer without amounts, a channel partner refused (roi.test.ts)
  'GET /api/admin/dashboard': 'staffRead',
  'POST /api/report/vitals': 'public',
  'GET /api/admin/web-vitals': 'staffRead',
};

const USER_CLASSES: Access[] = ['user'];
/** Routes that take a person's token or a console token. */
const EITHER: Access[] = ['userOrStaff'];
const STAFF_CLASSES: Access[] = ['staffAny', 'staffRead', 'staffWrite', 'adminOnly', 'funnel'];

let ctx: TestContext;
let routes: { method: string; path: string; key: string }[] = [];
/** Tokens that must be refused (made once; the expired/revoked ones are real sessions). */
const t: Record<string, string> = {};
let allowed: Record<'user' | 'viewer' | 'channel_partner', string>;

beforeAll(async () => {
  ctx = await createTestApp();
  const { app } = ctx;
  const doc = (await app.inject({ url: '/api/docs/json' })).json() as {
    paths: Record<string, Record<string, unknown>>;
  };
  routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.keys(ops).map((m) => ({ method: m.toUpperCase(), path, key: `${m.toUpperCase()} ${path}` })),
  );

  // Users: expired (session expiresAt in the past) and revoked (logged out).
  const expiredUser = await loginAs(app);
  await app.database.db
    .update(sessions)
    .set({ expiresAt: sql`now() - interval '1 hour'` })
    .where(eq(sessions.userId, expiredUser.uid));
  t.userExpired = expiredUser.token;
  const revokedUser = await loginAs(app);
  const out = await app.inject({
    method: 'POST',
    url: '/api/logout',
    headers: { accesstoken: revokedUser.token },
  });
  expect(out.statusCode).toBe(200);
  t.userRevoked = revokedUser.token;
  t.user = (await loginAs(app)).token;

  // Staff: expired, revoked, and one token per role.
  const expiredStaff = await staffLogin(app, 'admin');
  await app.database.db
    .update(staffSessions)
    .set({ expiresAt: sql`now() - interval '1 hour'` })
    .where(eq(staffSessions.staffId, expiredStaff.id));
  t.staffExpired = expiredStaff.token;
  const revokedStaff = await staffLogin(app, 'admin');
  const staffOut = await app.inject({
    method: 'POST',
    url: '/api/crm/admin/logout',
    headers: { accesstoken: revokedStaff.token },
  });
  expect(staffOut.statusCode).toBe(200);
  t.staffRevoked = revokedStaff.token;
  t.viewer = (await staffLogin(app, 'viewer')).token;
  t.operator = (await staffLogin(app, 'operator')).token;
  t.channel_partner = (await staffLogin(app, 'channel_partner')).token;
  allowed = { user: t.user, viewer: t.viewer, channel_partner: t.channel_partner };
});
afterAll(async () => ctx?.close());

function call(method: string, path: string, token?: string): Promise<LightMyRequestResponse> {
  const url = path
    .replace('{routeCode}', 'RC1')
    .replace('{code}', 'register-agreement')
    .replace('{*}', 'x.png')
    .replace(/\{[^}]+\}/g, '1');
  return ctx.app.inject({
    method: method as 'GET',
    url,
    ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }),
    headers: token === undefined ? {} : { accesstoken: token },
  });
}

function expectRefused(res: LightMyRequestResponse, codes: number[], label: string) {
  expectEnvelope(res);
  expect(codes, `${label}: ${res.statusCode} ${res.body}`).toContain(body(res).code);
  expect([401, 403]).toContain(res.statusCode);
  expect(body(res).data).toBeNull();
}

describe(`authorisation matrix over every route (${BACKEND})`, () => {
  it('every route of the OpenAPI document has an access class', () => {
    expect(routes.length).toBeGreaterThan(100);
    const unclassified = routes.filter((r) => !(r.key in ACCESS)).map((r) => r.key);
    expect(unclassified, 'give each new route an access class in ACCESS').toEqual([]);
  });

  it('refuses authenticated routes without a token, with a garbage token, expired or revoked', async () => {
    const authed = routes.filter((r) =>
      [...USER_CLASSES, ...EITHER, ...STAFF_CLASSES].includes(ACCESS[r.key]!),
    );
    expect(authed.length).toBeGreaterThan(60);
    for (const r of authed) {
      const staffRoute = STAFF_CLASSES.includes(ACCESS[r.key]!);
      expectRefused(await call(r.method, r.path), [401], `${r.key} without token`);
      expectRefused(await call(r.method, r.path, ''), [401], `${r.key} empty token`);
      expectRefused(await call(r.method, r.path, 'garbage.token.value'), [401, 1005], `${r.key} garbage`);
      expectRefused(await call(r.method, r.path, 'x'.repeat(5000)), [401, 1005], `${r.key} huge token`);
      const expired = staffRoute ? t.staffExpired! : t.userExpired!;
      const revoked = staffRoute ? t.staffRevoked! : t.userRevoked!;
      expectRefused(await call(r.method, r.path, expired), [1005], `${r.key} expired`);
      expectRefused(await call(r.method, r.path, revoked), [1005], `${r.key} revoked`);
    }
  });

  it('refuses a person’s token on every console route and a staff token on every user route', async () => {
    for (const r of routes) {
      const cls = ACCESS[r.key]!;
      if (STAFF_CLASSES.includes(cls)) {
        expectRefused(await call(r.method, r.path, t.user), [401, 403, 1005], `${r.key} user token`);
      }
      if (USER_CLASSES.includes(cls)) {
        for (const role of ['viewer', 'operator', 'channel_partner']) {
          expectRefused(await call(r.method, r.path, t[role]), [401, 403, 1005], `${r.key} ${role} token`);
        }
      }
    }
  });

  it('refuses too low a role: viewer on changes, operator on admin-only, channel partner outside the funnel', async () => {
    for (const r of routes) {
      const cls = ACCESS[r.key]!;
      if (cls === 'staffWrite' || cls === 'adminOnly') {
        expectRefused(await call(r.method, r.path, t.viewer), [403], `${r.key} viewer`);
      }
      if (cls === 'adminOnly') {
        expectRefused(await call(r.method, r.path, t.operator), [403], `${r.key} operator`);
      }
      if (cls === 'staffRead' || cls === 'staffWrite' || cls === 'adminOnly') {
        expectRefused(await call(r.method, r.path, t.channel_partner), [403], `${r.key} channel partner`);
      }
    }
  });

  it('lets the lowest allowed caller through on every read route (the classes are not too strict)', async () => {
    for (const r of routes.filter((x) => x.method === 'GET')) {
      const cls = ACCESS[r.key]!;
      const token =
        cls === 'user' || cls === 'userOrStaff'
          ? allowed.user
          : cls === 'staffRead' || cls === 'staffAny'
            ? allowed.viewer
            : cls === 'funnel'
              ? allowed.channel_partner
              : undefined;
      if (!token) continue;
      const res = await call(r.method, r.path, token);
      if (r.path === '/api/user/export') {
        // A download (the person's own data as a JSON file), not the envelope.
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-disposition']).toMatch(/attachment/);
        continue;
      }
      expectEnvelope(res);
      expect([401, 403, 1005, 1006, 1007], `${r.key} ${res.body}`).not.toContain(body(res).code);
    }
  });

  it('public routes answer the envelope without any token', async () => {
    for (const r of routes.filter((x) => ACCESS[x.key] === 'public' && x.method === 'GET')) {
      const res = await call(r.method, r.path);
      if (r.path.endsWith('.json')) {
        expect(res.statusCode).toBe(200);
        continue;
      }
      expectEnvelope(res);
      expect([401, 403]).not.toContain(res.statusCode);
    }
  });
});
