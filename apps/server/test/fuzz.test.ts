import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.ts';
import { BACKEND, createTestApp, loginAs, type TestContext } from './helpers.ts';

/**
 * Property: whatever body or query arrives, the answer is the envelope, never a 5xx, and a refused
 * request stores nothing.
 */
let ctx: TestContext;
let token: string;
beforeAll(async () => {
  // Generous IP caps so the limiter does not hide validation paths.
  ctx = await createTestApp({ env: { SMS_IP_HOURLY_LIMIT: '100000', SMS_DEVICE_HOURLY_LIMIT: '100000' } });
  token = (await loginAs(ctx.app)).token;
});
afterAll(async () => ctx?.close());

async function counts() {
  const rows = rowsOf<{ users: number; codes: number; sessions: number; staff: number }>(
    await ctx.app.database.db.execute(sql`select
      (select count(*)::int from users) as users,
      (select count(*)::int from sms_codes) as codes,
      (select count(*)::int from sessions) as sessions,
      (select count(*)::int from staff) as staff`),
  );
  return rows[0]!;
}

const nearMiss = fc.oneof(
  fc.constantFrom(
    '13812345678',
    '1381234567',
    '23812345678',
    ' 13812345678 ',
    '１３８１２３４５６７８',
    '123456',
    '',
  ),
  fc.string({ maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(
    "' or 1=1 --",
    '<script>alert(1)</script>',
    '\u0000',
    '../../etc/passwd',
    'emt.x.y.z.w',
    '😀'.repeat(50),
  ),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 2 }),
);
const fieldNames = [
  'phone',
  'mobile',
  'code',
  'channelCode',
  'adChannelCode',
  'abTestType',
  'isFormReq',
  'encryptionMobile',
  'source',
  'password',
  'uid',
  'status',
  'adRouteCode',
  'fingerprint',
  'step',
  'sessionId',
  'skin',
  'behaviorCode',
  // matching, consent, products
  'productId',
  'productIds',
  'matchId',
  'consentId',
  'directMatchType',
  'phoneModel',
  'entranceType',
  'appH5',
  'pageNum',
  'pageSize',
  'leadId',
  'autoForm',
  // application-form draft (spec §3)
  'applyLimit',
  'job',
  'isHuaWeiPhone',
  'realName',
  'identity',
  'workCity',
  'workCityCode',
  'sesameCredit',
];
const bodyArb = fc.oneof(
  fc.dictionary(fc.constantFrom(...fieldNames), nearMiss, { maxKeys: 6 }),
  fc.anything({ maxDepth: 2 }),
);

const postEndpoints = [
  '/api/login/sendPhoneVerifyCode',
  '/api/login',
  '/api/upStreamUnionLogin/checkMobileLogin',
  '/api/crm/admin/login/sendPhoneVerifyCode',
  '/api/crm/admin/login',
  '/api/cancellation',
  '/api/logout',
  '/api/cancellation/sendPhoneVerifyCode',
  '/api/crm/admin/logout',
  '/api/report/event',
  '/api/user/info/tempSave',
  '/api/user/info/identityNameVerify',
  '/api/user/info/save',
  '/api/user/info/direct/match',
  '/api/partner/callback',
  '/api/partner/outcomes',
  '/api/product/apply',
  '/api/product/apiH5JumpUrlSuccessFlag',
];
const getEndpoints = [
  '/api/getEncryptionMobile',
  '/api/getUserLoginVO',
  '/api/dev/sms-outbox',
  '/api/dev/ad-clicks',
  '/api/getLoginUserInfo',
  '/api/getAdChannel',
  '/api/adChannel/plan/adChannelCode',
  '/api/adChannel/exchange/adChannelCode',
  '/api/adChannel/h5Config',
  '/api/reportAdChannelClick',
  '/api/user/info/form/show',
  '/api/user/info/detail',
  '/api/user/info/status/result',
  '/api/app/userInfo/userFormConfig',
  '/api/user/info/protocol/information-agreement',
  '/api/user/info/protocol2/getContent',
  '/api/product/topRecommend',
  '/api/product/productList',
  '/api/product/detail',
  '/api/product/randomRecommend',
  '/api/product/listTodayApplyProduct',
  '/api/product/columnRecommendProductList',
  '/api/product/h5product/union',
  '/api/reportProductExposure',
  '/api/agent/get',
];

/** Calls whose body is checked after login: fuzzed with a real token. */
const authedBodyEndpoints: ['POST' | 'PUT', string][] = [
  ['POST', '/api/user/info/save'],
  ['POST', '/api/user/info/direct/match'],
  ['PUT', '/api/user/info/auth'],
  ['POST', '/api/product/apply'],
];

function assertEnvelope(res: { statusCode: number; body: string }) {
  expect(res.statusCode).toBeLessThan(500);
  const b = JSON.parse(res.body) as { code: unknown; msg: unknown; data: unknown };
  expect(typeof b.code).toBe('number');
  expect(typeof b.msg).toBe('string');
  expect(b).toHaveProperty('data');
  expect(res.body).not.toMatch(/at \/|node_modules|stack|Error:/);
}

describe(`random input never breaks the API (${BACKEND})`, () => {
  for (const url of postEndpoints) {
    it(`POST ${url}`, async () => {
      await fc.assert(
        fc.asyncProperty(bodyArb, fc.boolean(), async (payload, withToken) => {
          const before = await counts();
          const res = await ctx.app.inject({
            method: 'POST',
            url,
            payload: JSON.stringify(payload ?? null),
            headers: {
              'content-type': 'application/json',
              ...(withToken ? { accesstoken: 'forged-token' } : {}),
            },
          });
          assertEnvelope(res);
          if (res.statusCode !== 200) {
            const after = await counts();
            expect(after.users).toBe(before.users);
            expect(after.sessions).toBe(before.sessions);
            expect(after.codes).toBe(before.codes);
            expect(after.staff).toBe(before.staff);
          }
        }),
        { numRuns: 60 },
      );
    });
  }

  for (const url of getEndpoints) {
    it(`GET ${url}`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.dictionary(
            fc.constantFrom(...fieldNames, 'encryptionMobile', 'source'),
            fc.string({ maxLength: 30 }),
            { maxKeys: 4 },
          ),
          async (query) => {
            const qs = new URLSearchParams(query).toString();
            const res = await ctx.app.inject({ url: `${url}?${qs}`, headers: { accesstoken: token } });
            assertEnvelope(res);
          },
        ),
        { numRuns: 60 },
      );
    });
  }

  for (const [method, url] of authedBodyEndpoints) {
    it(`${method} ${url} with a real token`, async () => {
      await fc.assert(
        fc.asyncProperty(bodyArb, async (payload) => {
          const res = await ctx.app.inject({
            method,
            url,
            payload: JSON.stringify(payload ?? null),
            headers: { 'content-type': 'application/json', accesstoken: token },
          });
          assertEnvelope(res);
        }),
        { numRuns: 60 },
      );
    });
  }

  it('POST /api/user/info/tempSave with a real token: envelope, and a refused draft changes nothing', async () => {
    const own = await loginAs(ctx.app);
    const shown = async () =>
      (await ctx.app.inject({ url: '/api/user/info/form/show', headers: { accesstoken: own.token } })).body;
    await fc.assert(
      fc.asyncProperty(bodyArb, async (payload) => {
        const before = await shown();
        const res = await ctx.app.inject({
          method: 'POST',
          url: '/api/user/info/tempSave',
          payload: JSON.stringify(payload ?? null),
          headers: { 'content-type': 'application/json', accesstoken: own.token },
        });
        assertEnvelope(res);
        if (res.statusCode !== 200) expect(await shown()).toBe(before);
      }),
      { numRuns: 60 },
    );
  });

  it('survives raw garbage bodies and odd content types', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 200 }),
        fc.constantFrom(
          'application/json',
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data',
          'application/json; charset=gbk',
        ),
        async (raw, type) => {
          const res = await ctx.app.inject({
            method: 'POST',
            url: '/api/login',
            payload: raw,
            headers: { 'content-type': type },
          });
          assertEnvelope(res);
        },
      ),
      { numRuns: 100 },
    );
  });
});
