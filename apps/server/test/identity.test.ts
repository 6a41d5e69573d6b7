import { idCardCheckChar } from '@lm/shared/validators/id-card';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError } from '../src/config/env.ts';
import { REALNAME_CHECKS_PER_USER_PER_HOUR } from '../src/modules/applications/routes.ts';
import {
  AliyunRealNameProvider,
  mapAliyunAnswer,
  RealNameServiceError,
} from '../src/providers/realname/aliyun.ts';
import { LocalRealNameProvider } from '../src/providers/realname/local.ts';
import {
  BACKEND,
  body,
  createTestApp,
  loginAs,
  type TestContext,
  testConfig,
  traceLogInto,
  useTestApp,
} from './helpers.ts';

const URL = '/api/user/info/identityNameVerify';
/** A specimen number (Beijing Dongcheng, born 1990-03-07, sequence 123: male). */
const withCheck = (first17: string) => `${first17}${idCardCheckChar(first17)}`;
const ID = withCheck('11010119900307123');
const NAME = '欧阳明月';

const logLines: string[] = [];
const ctx = useTestApp(traceLogInto(logLines));
afterEach(() => vi.unstubAllGlobals());

const verify = (app: TestContext['app'], payload: unknown, token?: string) =>
  app.inject({
    method: 'POST',
    url: URL,
    payload: payload as object,
    headers: token ? { accesstoken: token } : {},
  });

interface Answer {
  verified: boolean | null;
  method: string;
  note: string;
  age: number;
  gender: number;
}

describe(`POST ${URL} (${BACKEND})`, () => {
  it('requires login, before validation', async () => {
    for (const token of [undefined, 'forged-token']) {
      for (const payload of [{ realName: NAME, identity: ID }, { identity: 'nope' }]) {
        const res = await verify(ctx.app, payload, token);
        expect(res.statusCode).toBe(401);
        expect(body(res).code).toBe(401);
      }
    }
  });

  it('local provider: a valid number answers verified null, format-only, with age and gender', async () => {
    const { token } = await loginAs(ctx.app);
    const res = await verify(ctx.app, { realName: ` ${NAME} `, identity: ID.toLowerCase() }, token);
    expect(res.statusCode).toBe(200);
    const a = body<Answer>(res).data;
    expect(a.verified).toBeNull();
    expect(a.method).toBe('format-only');
    expect(a.note).toMatch(/未向权威机构核验/);
    expect(a.gender).toBe(1);
    const now = new Date(Date.now() + 8 * 3600_000);
    const beforeBirthday = now.getUTCMonth() + 1 < 3 || (now.getUTCMonth() + 1 === 3 && now.getUTCDate() < 7);
    expect(a.age).toBe(now.getUTCFullYear() - 1990 - (beforeBirthday ? 1 : 0));

    const female = withCheck('44030519851231002');
    const f = body<Answer>(await verify(ctx.app, { realName: '李四', identity: female }, token)).data;
    expect(f.gender).toBe(2);
    expect(f.verified).toBeNull();
  });

  it('rejects a bad checksum, region, birth date or name with the Chinese message', async () => {
    const { token } = await loginAs(ctx.app);
    const wrongCheck = `${ID.slice(0, 17)}${ID[17] === '1' ? '2' : '1'}`;
    const cases: [unknown, RegExp][] = [
      [{ realName: NAME, identity: wrongCheck }, /身份证号校验位不正确/],
      [{ realName: NAME, identity: withCheck('99010119900307123') }, /身份证号的地区码无效/],
      [{ realName: NAME, identity: withCheck('11010119901332123') }, /身份证号中的出生日期无效/],
      [{ realName: NAME, identity: withCheck('11010130000101123') }, /身份证号中的出生日期无效/],
      [{ realName: NAME, identity: '1101011990030712' }, /身份证号应为18位/],
      [{ realName: NAME }, /请填写身份证号/],
      [{ realName: 'Zhang San', identity: ID }, /真实姓名应为2-20个汉字/],
      [{ identity: ID }, /请填写真实姓名/],
    ];
    for (const [payload, message] of cases) {
      const res = await verify(ctx.app, payload, token);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(body(res).code).toBe(400);
      expect(body(res).msg).toMatch(message);
    }
  });

  it(`limits each person to ${REALNAME_CHECKS_PER_USER_PER_HOUR} checks an hour`, async () => {
    const { token } = await loginAs(ctx.app);
    for (let i = 0; i < REALNAME_CHECKS_PER_USER_PER_HOUR; i++) {
      expect((await verify(ctx.app, { realName: NAME, identity: ID }, token)).statusCode).toBe(200);
    }
    const refused = await verify(ctx.app, { realName: NAME, identity: ID }, token);
    expect(refused.statusCode).toBe(429);
    expect(body(refused).msg).toMatch(/^实名校验过于频繁，请.+后再试$/);
    // Another person is not affected.
    const other = await loginAs(ctx.app);
    expect((await verify(ctx.app, { realName: NAME, identity: ID }, other.token)).statusCode).toBe(200);
  });

  it('never writes the name or the number to the logs in clear', () => {
    expect(logLines.length).toBeGreaterThan(0);
    const all = logLines.join('\n');
    expect(all).toContain(URL);
    for (const secret of [NAME, ID, ID.toLowerCase(), ID.slice(0, 14)]) expect(all).not.toContain(secret);
  });
});

describe('real-name providers', () => {
  it('local never claims a verified identity', async () => {
    const local = new LocalRealNameProvider();
    expect(await local.verify({ name: NAME, idNumber: ID })).toEqual({
      verified: null,
      method: 'format-only',
      reason: 'format-only',
    });
    await expect(local.verify({ name: NAME, idNumber: '110101199003071230' })).rejects.toThrow();
  });

  // Recorded answers of the Aliyun market 身份证二要素 API (数脉), personal fields replaced.
  const recorded = {
    match: {
      code: '0',
      message: '成功',
      result: {
        name: '张三',
        idcard: '110101199003071234',
        res: '1',
        description: '一致',
        sex: '男',
        birthday: '19900307',
        address: '北京市东城区',
      },
    },
    mismatch: { code: '0', message: '成功', result: { res: '2', description: '不一致' } },
    noRecord: { code: '0', message: '成功', result: { res: '3', description: '无记录' } },
    badName: { code: '20310', message: '姓名不合法', result: null },
    serviceError: { code: '20501', message: '系统维护' },
  };

  it('maps the service answers', () => {
    expect(mapAliyunAnswer(recorded.match)).toEqual({ verified: true, method: 'provider', reason: 'match' });
    expect(mapAliyunAnswer(recorded.mismatch)).toEqual({
      verified: false,
      method: 'provider',
      reason: 'mismatch',
    });
    expect(mapAliyunAnswer(recorded.noRecord)).toEqual({
      verified: false,
      method: 'provider',
      reason: 'no-record',
    });
    expect(() => mapAliyunAnswer(recorded.badName)).toThrow(RealNameServiceError);
    expect(() => mapAliyunAnswer(recorded.serviceError)).toThrow(/20501/);
    expect(() => mapAliyunAnswer({ code: '0', result: { res: '9' } })).toThrow(/unknown res/);
    expect(() => mapAliyunAnswer('<html>')).toThrow(/malformed/);
  });

  function fakeLog() {
    const warnings: unknown[][] = [];
    const log = { warn: (...args: unknown[]) => void warnings.push(args) } as unknown as FastifyBaseLogger;
    return { log, warnings };
  }

  it('posts name and number in the body with the AppCode, never in the URL', async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    const fetchStub = (async (url: string | URL, init?: RequestInit) => {
      calls.push({ url: String(url), init: init ?? {} });
      return new Response(JSON.stringify(recorded.match), {
        headers: { 'content-type': 'application/json' },
      });
    }) as typeof fetch;
    const { log } = fakeLog();
    const p = new AliyunRealNameProvider({ appCode: 'the-app-code', log, fetch: fetchStub });
    expect(await p.verify({ name: NAME, idNumber: ID })).toEqual({
      verified: true,
      method: 'provider',
      reason: 'match',
    });
    expect(calls).toHaveLength(1);
    const { url, init } = calls[0]!;
    expect(url).toBe('https://eid.shumaidata.com/eid/check');
    expect(init.method).toBe('POST');
    expect((init.headers as Record<string, string>).authorization).toBe('APPCODE the-app-code');
    const sent = new URLSearchParams(String(init.body));
    expect(sent.get('name')).toBe(NAME);
    expect(sent.get('idcard')).toBe(ID);
  });

  it('answers verified null when the service fails, logging neither the person nor the AppCode', async () => {
    const answers: (() => Response | Promise<Response>)[] = [
      () => new Response('', { status: 403, headers: { 'x-ca-error-message': 'Invalid AppCode' } }),
      () => new Response('not json'),
      () => new Response(JSON.stringify(recorded.serviceError)),
      () => Promise.reject(new TypeError('fetch failed')),
    ];
    for (const answer of answers) {
      const { log, warnings } = fakeLog();
      const p = new AliyunRealNameProvider({
        appCode: 'secret-app-code',
        log,
        fetch: (async () => answer()) as typeof fetch,
      });
      expect(await p.verify({ name: NAME, idNumber: ID })).toEqual({
        verified: null,
        method: 'provider',
        reason: 'unavailable',
      });
      expect(warnings).toHaveLength(1);
      const logged = JSON.stringify(warnings);
      for (const secret of [NAME, ID, 'secret-app-code']) expect(logged).not.toContain(secret);
    }
  });

  it('requires REALNAME_APPCODE with REALNAME_PROVIDER=aliyun and defaults to local', () => {
    expect(() => testConfig({ REALNAME_PROVIDER: 'aliyun' })).toThrow(ConfigError);
    expect(() => testConfig({ REALNAME_PROVIDER: 'aliyun' })).toThrow(
      /REALNAME_APPCODE: required when REALNAME_PROVIDER=aliyun/,
    );
    expect(() => testConfig({ REALNAME_PROVIDER: 'tencent' })).toThrow(ConfigError);
    expect(testConfig().REALNAME_PROVIDER).toBe('local');
  });

  it(`REALNAME_PROVIDER=aliyun answers the service's verdict through the route (${BACKEND})`, async () => {
    const realFetch = globalThis.fetch;
    vi.stubGlobal('fetch', (async (url: string | URL, init?: RequestInit) => {
      if (String(url).startsWith('https://eid.shumaidata.com/')) {
        return new Response(JSON.stringify(recorded.mismatch));
      }
      return realFetch(url, init);
    }) as typeof fetch);
    const other = await createTestApp({ env: { REALNAME_PROVIDER: 'aliyun', REALNAME_APPCODE: 'x' } });
    try {
      expect(other.app.services.realName.name).toBe('aliyun');
      const { token } = await loginAs(other.app);
      const res = await verify(other.app, { realName: NAME, identity: ID }, token);
      expect(res.statusCode).toBe(200);
      const a = body<Answer>(res).data;
      expect(a).toMatchObject({ verified: false, method: 'provider', gender: 1 });
      expect(a.note).toMatch(/不一致/);
    } finally {
      await other.close();
    }
  });
});
