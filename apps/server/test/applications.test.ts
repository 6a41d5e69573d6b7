import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.ts';
import { users } from '../src/db/schema.ts';
import { BACKEND, body, createTestApp, loginAs, type TestContext } from './helpers.ts';

const ID = '53010219200508011X';
const NAME = '张三丰';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx?.close());

const get = (url: string, token?: string) =>
  ctx.app.inject({ method: 'GET', url, headers: token ? { accesstoken: token } : {} });
const tempSave = (payload: unknown, token?: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/user/info/tempSave',
    payload: payload as object,
    headers: token ? { accesstoken: token } : {},
  });

describe(`application form calls (${BACKEND})`, () => {
  it('require login', async () => {
    for (const url of [
      '/api/user/info/form/show',
      '/api/user/info/detail',
      '/api/user/info/status/result',
      '/api/app/userInfo/userFormConfig?adChannelCode=demo',
    ]) {
      for (const token of [undefined, 'forged-token']) {
        const res = await get(url, token);
        expect(res.statusCode, url).toBe(401);
        expect(body(res).code).toBe(401);
      }
    }
    // Auth comes before validation: an anonymous caller gets 401 even for a bad body.
    expect((await tempSave({ applyLimit: 2 })).statusCode).toBe(401);
    expect((await tempSave({ applyLimit: 99 })).statusCode).toBe(401);
  });

  it('tempSave merges into one draft that survives, shown masked', async () => {
    const { token, uid } = await loginAs(ctx.app);
    expect(body(await get('/api/user/info/form/show', token)).data).toEqual({});

    const first = await tempSave(
      { adChannelCode: 'demo', applyLimit: 2, job: 1, isHuaWeiPhone: false },
      token,
    );
    expect(first.statusCode).toBe(200);
    const { savedAt } = body<{ savedAt: string }>(first).data;
    expect(Number.isNaN(Date.parse(savedAt))).toBe(false);

    const second = await tempSave(
      {
        realName: ` ${NAME} `,
        identity: ID.toLowerCase(),
        workCity: '深圳市',
        workCityCode: '440300',
        applyLimit: 3,
        sesameCredit: 0,
        realNameExtra: 'ignored',
        payoffForm: '', // empty values are dropped, never stored
      },
      token,
    );
    expect(second.statusCode).toBe(200);

    const shown = body<Record<string, unknown>>(await get('/api/user/info/form/show', token)).data;
    expect(shown).toEqual({
      adChannelCode: 'demo',
      isHuaWeiPhone: false,
      applyLimit: 3,
      job: 1,
      sesameCredit: 0,
      realName: '张**',
      identity: '530***********011X',
      workCity: '深圳市',
      workCityCode: '440300',
    });

    // Stored once, encrypted: the raw row holds neither the name nor the ID number.
    const rows = rowsOf<{ user_id: number; data_enc: string }>(
      await ctx.app.database.db.execute(sql`select user_id, data_enc from application_drafts`),
    ).filter((r) => Number(r.user_id) === uid);
    expect(rows).toHaveLength(1);
    const raw = JSON.stringify(rows[0]);
    expect(raw).not.toContain(NAME);
    expect(raw).not.toContain(ID);
    expect(raw).not.toContain('530102');
    expect(raw).not.toContain('440300');
    expect(rows[0]!.data_enc).toMatch(/^v1\./);

    const detail = body(await get('/api/user/info/detail', token)).data;
    expect(detail).toEqual({ submitStatus: 0, applyLimit: 3, workCity: '深圳市' });
  });

  it('refuses bad values with Chinese messages naming the field', async () => {
    const { token } = await loginAs(ctx.app);
    const cases: [Record<string, unknown>, RegExp, string][] = [
      [{ identity: '530102192005080110' }, /身份证号校验位不正确/, 'identity'],
      [{ identity: '99010219200508011X' }, /身份证号的地区码无效/, 'identity'],
      [{ identity: '5301021920050801100000' }, /身份证号应为18位/, 'identity'],
      [{ workCityCode: '44030' }, /工作城市编码应为6位数字/, 'workCityCode'],
      [{ workCityCode: 'abcdef' }, /工作城市编码/, 'workCityCode'],
      [{ applyLimit: 5 }, /借款额度选项无效/, 'applyLimit'],
      [{ job: 0 }, /职业身份选项无效/, 'job'],
      [{ sesameCredit: 1.5 }, /芝麻分选项无效/, 'sesameCredit'],
      [{ housingFund: '1' }, /公积金选项无效/, 'housingFund'],
      [{ realName: '张'.repeat(21) }, /真实姓名应为2-20个汉字/, 'realName'],
      [{ realName: 'John' }, /真实姓名/, 'realName'],
      [{ workCity: '深'.repeat(33) }, /工作城市最长32个字/, 'workCity'],
      [{ adChannelCode: 'x'.repeat(65) }, /渠道码最长64个字符/, 'adChannelCode'],
      [{ isHuaWeiPhone: 'maybe' }, /是否华为手机/, 'isHuaWeiPhone'],
    ];
    for (const [payload, msg, field] of cases) {
      const res = await tempSave(payload, token);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      const b = body<{ fields: { field: string; message: string }[] }>(res);
      expect(b.code).toBe(400);
      expect(b.msg).toMatch(msg);
      expect(b.msg).toContain(field);
      expect(b.data.fields[0]!.field).toBe(field);
    }
    // Nothing was stored by the refused calls.
    expect(body(await get('/api/user/info/form/show', token)).data).toEqual({});
  });

  it('status/result and detail follow userInfoStatus; userFormConfig follows the channel', async () => {
    const { token, uid } = await loginAs(ctx.app, undefined, { adChannelCode: 'demo-crm' });
    expect(body(await get('/api/user/info/status/result', token)).data).toEqual({
      submitStatus: 0,
      userInfoStatus: 0,
      coverStatus: 0,
    });
    expect(body(await get('/api/user/info/detail', token)).data).toEqual({
      submitStatus: 0,
      applyLimit: null,
      workCity: null,
    });

    const config = async (qs: string) =>
      body(await get(`/api/app/userInfo/userFormConfig${qs}`, token)).data as Record<string, number>;
    expect(await config('?adChannelCode=demo-crm')).toEqual({
      creditStatus: 1,
      diversionStatus: 1,
      coverStatus: 0,
    });
    expect(await config('?adChannelCode=demo')).toEqual({
      creditStatus: 0,
      diversionStatus: 1,
      coverStatus: 0,
    });
    expect(await config('?adChannelCode=no-such-channel')).toMatchObject({ creditStatus: 0 });
    // Without a code: the person's own channel (logged in through demo-crm).
    expect(await config('')).toMatchObject({ creditStatus: 1 });
    expect(await config('?adChannelCode=')).toMatchObject({ creditStatus: 1 });
    const bad = await get('/api/app/userInfo/userFormConfig?adChannelCode=%3Cscript%3E', token);
    expect(bad.statusCode).toBe(400);
    expect(body(bad).msg).toMatch(/渠道码/);

    for (const [userInfoStatus, submitStatus] of [
      [1, 1],
      [2, 10],
    ] as const) {
      await ctx.app.database.db
        .update(users)
        .set({ userInfoStatus, coverStatus: 1 })
        .where(eq(users.id, uid));
      expect(body(await get('/api/user/info/status/result', token)).data).toEqual({
        submitStatus,
        userInfoStatus,
        coverStatus: 1,
      });
      expect(body(await get('/api/user/info/detail', token)).data).toMatchObject({ submitStatus });
      expect(await config('?adChannelCode=demo')).toEqual({
        creditStatus: 0,
        diversionStatus: 1,
        coverStatus: 1,
      });
    }
  });

  it("another person can't read or change my draft", async () => {
    const me = await loginAs(ctx.app);
    const other = await loginAs(ctx.app);
    expect((await tempSave({ realName: NAME, identity: ID, applyLimit: 1 }, me.token)).statusCode).toBe(200);
    expect((await tempSave({ applyLimit: 4 }, other.token)).statusCode).toBe(200);

    const theirs = body(await get('/api/user/info/form/show', other.token)).data;
    expect(theirs).toEqual({ applyLimit: 4 });
    const mine = body(await get('/api/user/info/form/show', me.token)).data;
    expect(mine).toEqual({ realName: '张**', identity: '530***********011X', applyLimit: 1 });
    expect(body(await get('/api/user/info/detail', other.token)).data).toMatchObject({ applyLimit: 4 });
  });

  it('concurrent autosaves of one person lose no field', async () => {
    const { token } = await loginAs(ctx.app);
    const patches = [
      { applyLimit: 2 },
      { job: 3 },
      { socialSecurity: 1 },
      { housingFund: 2 },
      { insurance: 0 },
      { houseProperty: 1 },
      { carProperty: 2 },
      { creditInvestigation: 1 },
    ];
    const results = await Promise.all(patches.map((p) => tempSave(p, token)));
    expect(results.map((r) => r.statusCode)).toEqual(patches.map(() => 200));
    expect(body(await get('/api/user/info/form/show', token)).data).toEqual(Object.assign({}, ...patches));
  });
});
