import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { desc, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { smsCodes } from '../../src/db/schema.ts';
import {
  CHALLENGE_LIMITS,
  KNOWN_DEVICE_LIMITS,
  MAX_WRONG_PASSWORDS_PER_KNOWN_DEVICE,
} from '../../src/modules/auth/rules.ts';
import { MAX_WRONG_PASSWORDS_PER_ACCOUNT } from '../../src/modules/staff/service.ts';
import { BACKEND, body, devOutbox, newIp, newPhone, useTestApp } from '../helpers.ts';
import { expectEnvelope } from './fixtures.ts';

/**
 * Issue 44 item 3 (ADR 055): a stranger who knows the phone and rotates addresses must not lock the person or the
 * staff member out, and SMS pumping stays capped on every path. The clock is faked (Date only), so this app runs
 * on the embedded PGlite with its limits in the database, whose windows follow the app's clock (ADR 047).
 */
const ctx = useTestApp({
  env: { REDIS_URL: undefined, DATABASE_URL: undefined, ALTCHA_MAX_NUMBER: '2000' } as unknown as Record<
    string,
    string
  >,
});
afterEach(() => vi.useRealTimers());

const PASSWORD = 'correct horse battery staple';
const USER_SEND = '/api/login/sendPhoneVerifyCode';
const USER_LOGIN = '/api/login';
const STAFF_SEND = '/api/crm/admin/login/sendPhoneVerifyCode';
const STAFF_LOGIN = '/api/crm/admin/login';

let now = 0;
/** Starts the fake clock at a fresh hour of its own (each test on its own day, so day caps do not meet). */
let dayCounter = 0;
function startClock() {
  now = Date.parse('2026-03-02T01:00:00Z') + ++dayCounter * 86_400_000;
  vi.useFakeTimers({ toFake: ['Date'], now: new Date(now) });
}
function advance(ms: number) {
  now += ms;
  vi.setSystemTime(new Date(now));
}

function call(
  url: string,
  payload: Record<string, unknown>,
  opts: { ip?: string; device?: string | undefined } = {},
): Promise<LightMyRequestResponse> {
  return ctx.app.inject({
    method: 'POST',
    url,
    payload,
    remoteAddress: opts.ip ?? newIp(),
    headers: opts.device ? { 'x-known-device': opts.device } : {},
  });
}
const codeOf = (res: LightMyRequestResponse) => body(res).code;

async function latest(phone: string): Promise<string> {
  const code = (await devOutbox(ctx.app, phone))[0]?.code;
  if (!code) throw new Error(`no code for ${phone}`);
  return code;
}
/** A six-digit code that is not `right`. */
const wrongFor = (right: string, i: number) => {
  const guess = String(100000 + i * 7919).slice(0, 6);
  return guess === right ? String(200000 + i) : guess;
};

/** Solves the challenge of a 1008 answer as the client does; answers the body field `altcha`. */
async function solve(res: LightMyRequestResponse): Promise<string> {
  const answer = body<{ challenge: Parameters<typeof solveChallenge>[0]['challenge'] }>(res);
  expect(answer.code, res.body).toBe(1008);
  const solution = await solveChallenge({ challenge: answer.data.challenge, deriveKey });
  expect(solution).not.toBeNull();
  return Buffer.from(JSON.stringify({ challenge: answer.data.challenge, solution })).toString('base64');
}

/**
 * The attack: once a minute, from a fresh address each time, ask for the victim's code and burn it with
 * five wrong guesses from five more addresses; `rounds` times.
 */
async function attack(phone: string, sendUrl: string, loginUrl: string, rounds = 5) {
  for (let r = 0; r < rounds; r++) {
    advance(61_000);
    const sent = await call(sendUrl, { phone });
    expect(codeOf(sent), sent.body).toBe(200);
    const right = await latest(phone);
    for (let i = 0; i < 5; i++) {
      const guess = await call(loginUrl, { phone, code: wrongFor(right, r * 5 + i) });
      expect([1002, 1000]).toContain(codeOf(guess));
    }
    // The code is burnt: even the right one no longer passes.
    expect(codeOf(await call(loginUrl, { phone, code: right }))).not.toBe(200);
  }
  advance(61_000);
}

/** A person logs in once (this device becomes known); answers the device token. */
async function ownerLogsIn(phone: string): Promise<string> {
  expect(codeOf(await call(USER_SEND, { phone }))).toBe(200);
  const res = await call(USER_LOGIN, { phone, code: await latest(phone) });
  expect(codeOf(res), res.body).toBe(200);
  const device = body<{ knownDevice: string }>(res).data.knownDevice;
  expect(device).toMatch(/^[A-Za-z0-9_-]{40,}$/);
  return device;
}

describe(`strangers cannot lock anyone out (${BACKEND})`, () => {
  it('the issue’s attack on a person: today’s refusal for strangers, while the owner with a known device gets a code from a fresh address and logs in', async () => {
    startClock();
    const phone = newPhone();
    const device = await ownerLogsIn(phone);
    advance(2 * 3600_000); // the next day's attack starts on a fresh hour

    await attack(phone, USER_SEND, USER_LOGIN);
    // Without a device the phone's hour is used up: a stranger (or the owner on a new phone) is asked for a challenge.
    const stranger = await call(USER_SEND, { phone });
    expect(stranger.statusCode).toBe(429);
    expect(body(stranger)).toMatchObject({ code: 1008 });
    expect(body(stranger).msg).toBe('该手机号本小时获取验证码次数已达上限，请完成安全验证后再获取验证码');

    // The owner's device, from a fresh address, gets a code on its own budget …
    const own = await call(USER_SEND, { phone }, { device });
    expect(codeOf(own), own.body).toBe(200);
    const code = await latest(phone);
    // … which strangers can neither burn (their wrong guesses reach no code) nor replace (their send is refused
    // here, and a paid one would replace only unheld codes).
    for (let i = 0; i < 10; i++)
      expect(codeOf(await call(USER_LOGIN, { phone, code: wrongFor(code, i) }))).toBe(1002);
    const paid = await call(USER_SEND, { phone, altcha: await solve(stranger) });
    expect(codeOf(paid), paid.body).toBe(200);
    const strangersCode = await latest(phone);
    expect(strangersCode).not.toBe(code);
    // The owner logs in with the code their device holds.
    const login = await call(USER_LOGIN, { phone, code }, { device });
    expect(codeOf(login), login.body).toBe(200);
    // The same device token is answered again (renewed), not a new one.
    expect(body<{ knownDevice: string }>(login).data.knownDevice).toBe(device);
  }, 120_000);

  it('the owner without a known device gets 1008, solves the challenge and logs in; a replayed or forged solution is refused', async () => {
    startClock();
    const phone = newPhone();
    await attack(phone, USER_SEND, USER_LOGIN);

    const asked = await call(USER_SEND, { phone });
    expectEnvelope(asked);
    expect(codeOf(asked)).toBe(1008);
    const altcha = await solve(asked);
    const sent = await call(USER_SEND, { phone, altcha });
    expect(codeOf(sent), sent.body).toBe(200);
    const code = await latest(phone);
    const login = await call(USER_LOGIN, { phone, code });
    expect(codeOf(login), login.body).toBe(200);

    // A replay of the same solution, a minute later from another address: refused with a new challenge.
    advance(61_000);
    const replay = await call(USER_SEND, { phone, altcha });
    expect(body(replay)).toMatchObject({ code: 1008, msg: '安全验证已使用，请重新验证' });
    expect(body<{ challenge: unknown }>(replay).data.challenge).toBeTruthy();

    // Forged: a wrong counter, a tampered challenge (an easier prefix), an unsigned one, garbage.
    const fresh = await call(USER_SEND, { phone });
    const solved = JSON.parse(Buffer.from(await solve(fresh), 'base64').toString()) as {
      challenge: { parameters: Record<string, unknown>; signature: string };
      solution: { counter: number; derivedKey: string };
    };
    const forge = (f: (p: typeof solved) => unknown) =>
      Buffer.from(JSON.stringify(f(structuredClone(solved)))).toString('base64');
    const forgeries = [
      forge((p) => ({ ...p, solution: { ...p.solution, counter: p.solution.counter + 1 } })),
      forge((p) => ({ ...p, solution: { ...p.solution, derivedKey: '00'.repeat(32) } })),
      forge((p) => ({
        ...p,
        challenge: { ...p.challenge, parameters: { ...p.challenge.parameters, keyPrefix: '0' } },
      })),
      forge((p) => ({ ...p, challenge: { parameters: p.challenge.parameters } })),
      forge((p) => ({
        ...p,
        challenge: { ...p.challenge, parameters: { ...p.challenge.parameters, data: { p: 'staff_login' } } },
      })),
      Buffer.from('not json').toString('base64'),
      'x',
    ];
    for (const altchaForged of forgeries) {
      const res = await call(USER_SEND, { phone, altcha: altchaForged });
      expect(body(res), altchaForged).toMatchObject({ code: 1008, msg: '安全验证未通过，请重新验证' });
    }
    // The genuine solution still works once (the forgeries did not spend it) …
    const good = Buffer.from(JSON.stringify(solved)).toString('base64');
    expect(codeOf(await call(USER_SEND, { phone, altcha: good }))).toBe(200);
    // … and an expired one does not.
    const later = await call(USER_SEND, { phone });
    const late = await solve(later);
    advance(5 * 60_000 + 2_000);
    expect(body(await call(USER_SEND, { phone, altcha: late }))).toMatchObject({ code: 1008 });
  }, 120_000);

  it('staff: after the attack on the console code and 120 wrong passwords from 120 addresses, the code and the password from a known device still work', async () => {
    startClock();
    const phone = newPhone();
    await ctx.app.services.staff.create({ phone, name: '陌生人测试', role: 'operator', password: PASSWORD });
    const first = await call(STAFF_LOGIN, { phone, password: PASSWORD });
    expect(codeOf(first), first.body).toBe(200);
    const device = body<{ knownDevice: string }>(first).data.knownDevice;
    expect(device).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    advance(2 * 3600_000);

    await attack(phone, STAFF_SEND, STAFF_LOGIN);
    for (let batch = 0; batch < 6; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => call(STAFF_LOGIN, { phone, password: `wrong ${batch}-${i}` })),
      );
      for (const a of answers) expect([1000, 429]).toContain(codeOf(a));
    }
    // Strangers now find both ways shut without a device: the account's password lock, and a challenge for a code.
    expect(body(await call(STAFF_LOGIN, { phone, password: PASSWORD })).msg).toMatch(
      /^该账号密码错误次数过多/,
    );
    expect(codeOf(await call(STAFF_SEND, { phone }))).toBe(1008);
    expect(MAX_WRONG_PASSWORDS_PER_ACCOUNT).toBeLessThan(120);

    // The staff member's known device: the password works …
    const byPassword = await call(STAFF_LOGIN, { phone, password: PASSWORD }, { device });
    expect(codeOf(byPassword), byPassword.body).toBe(200);
    // … and so does the console code, from a fresh address.
    advance(61_000);
    const sent = await call(STAFF_SEND, { phone }, { device });
    expect(codeOf(sent), sent.body).toBe(200);
    const byCode = await call(STAFF_LOGIN, { phone, code: await latest(phone) }, { device });
    expect(codeOf(byCode), byCode.body).toBe(200);
    // A device of another account (or a person's) is not this account's.
    const personDevice = await ownerLogsIn(newPhone());
    expect(
      body(await call(STAFF_LOGIN, { phone, password: PASSWORD }, { device: personDevice })).msg,
    ).toMatch(/^该账号密码错误次数过多/);
  }, 240_000);

  it('the cancellation code a known device asked for is held by it: the cancellation with the device passes', async () => {
    startClock();
    const phone = newPhone();
    const device = await ownerLogsIn(phone);
    advance(61_000);
    const login = await call(USER_SEND, { phone }, { device });
    expect(codeOf(login)).toBe(200);
    const session = await call(USER_LOGIN, { phone, code: await latest(phone) }, { device });
    const token = body<{ token: string }>(session).data.token;
    const withToken = (url: string, payload: Record<string, unknown>, dev?: string) =>
      ctx.app.inject({
        method: 'POST',
        url,
        payload,
        remoteAddress: newIp(),
        headers: { accesstoken: token, ...(dev ? { 'x-known-device': dev } : {}) },
      });
    expect(codeOf(await withToken('/api/cancellation/sendPhoneVerifyCode', {}, device))).toBe(200);
    const code = await latest(phone);
    // Without the device the held code is out of reach; with it the account is cancelled.
    expect(codeOf(await withToken('/api/cancellation', { code }))).toBe(1002);
    expect(codeOf(await withToken('/api/cancellation', { code }, device))).toBe(200);
    // The person's devices are forgotten with the account: the token is no device any more.
    advance(61_000);
    const again = await call(USER_SEND, { phone }, { device });
    expect(codeOf(again)).toBe(200);
    const [held] = await ctx.app.database.db
      .select({ holder: smsCodes.holderDeviceId })
      .from(smsCodes)
      .where(eq(smsCodes.phoneHash, ctx.app.services.phoneIndex(phone)))
      .orderBy(desc(smsCodes.id))
      .limit(1);
    expect(held).toEqual({ holder: null });
  }, 60_000);

  it('a staff member’s known device has its own small cap of wrong passwords, which does not lock the account', async () => {
    startClock();
    const phone = newPhone();
    await ctx.app.services.staff.create({ phone, name: '设备上限', role: 'viewer', password: PASSWORD });
    const first = await call(STAFF_LOGIN, { phone, password: PASSWORD });
    const device = body<{ knownDevice: string }>(first).data.knownDevice;
    for (let i = 0; i < MAX_WRONG_PASSWORDS_PER_KNOWN_DEVICE; i++)
      expect(codeOf(await call(STAFF_LOGIN, { phone, password: `wrong ${i}` }, { device }))).toBe(1000);
    const capped = await call(STAFF_LOGIN, { phone, password: PASSWORD }, { device });
    expect(body(capped)).toMatchObject({
      code: 429,
      msg: expect.stringMatching(/^密码错误次数过多，本设备的密码登录已锁定/),
    });
    // Nothing of it counted against the account: the password works from another browser.
    expect(codeOf(await call(STAFF_LOGIN, { phone, password: PASSWORD }))).toBe(200);
  }, 60_000);

  it('one address that used its 30 sends an hour serves the next phone at the price of a challenge each', async () => {
    startClock();
    const ip = newIp();
    for (let i = 0; i < ctx.app.config.SMS_IP_HOURLY_LIMIT; i++)
      expect(codeOf(await call(USER_SEND, { phone: newPhone() }, { ip }))).toBe(200);
    const phone = newPhone();
    const asked = await call(USER_SEND, { phone }, { ip });
    expect(body(asked)).toMatchObject({
      code: 1008,
      msg: '当前网络获取验证码过于频繁，请完成安全验证后再获取验证码',
    });
    const sent = await call(USER_SEND, { phone, altcha: await solve(asked) }, { ip });
    expect(codeOf(sent), sent.body).toBe(200);
    expect(codeOf(await call(USER_LOGIN, { phone, code: await latest(phone) }, { ip }))).toBe(200);
  }, 120_000);
});

describe('the API document says it (ADR 055)', () => {
  it('names X-Known-Device on the send-code and login routes, altcha in their bodies, knownDevice in the answers', async () => {
    const doc = (await ctx.app.inject({ url: '/api/docs/json' })).json() as {
      components: { responses: Record<string, unknown> };
      paths: Record<
        string,
        { post: { parameters?: { in: string; name: string }[]; requestBody?: unknown; responses: unknown } }
      >;
    };
    for (const path of [USER_SEND, USER_LOGIN, STAFF_SEND, STAFF_LOGIN]) {
      const op = doc.paths[path]!.post;
      expect(
        op.parameters?.some((p) => p.in === 'header' && p.name.toLowerCase() === 'x-known-device'),
        path,
      ).toBe(true);
    }
    for (const path of [USER_SEND, STAFF_SEND])
      expect(JSON.stringify(doc.paths[path]!.post.requestBody)).toContain('"altcha"');
    for (const path of [USER_LOGIN, STAFF_LOGIN])
      expect(JSON.stringify(doc.paths[path]!.post.responses)).toContain('"knownDevice"');
    // The 429 answer of the send-code routes says what 1008 means.
    expect(JSON.stringify(doc.paths[USER_SEND]!.post.responses)).toContain(
      '#/components/responses/TooManyRequests',
    );
    expect(JSON.stringify(doc.components.responses.TooManyRequests)).toMatch(
      /1008.*CHALLENGE_REQUIRED.*X-Known-Device/,
    );
  });
});

describe(`SMS pumping stays capped on every path (${BACKEND})`, () => {
  /** Asks for a code for `phone` from a fresh address, paying any challenge; true when a code went out. */
  async function pumpOnce(phone: string, ip = newIp()): Promise<boolean> {
    const res = await call(USER_SEND, { phone }, { ip });
    if (codeOf(res) === 200) return true;
    if (codeOf(res) !== 1008) {
      expect(codeOf(res), res.body).toBe(429);
      return false;
    }
    const paid = await call(USER_SEND, { phone, altcha: await solve(res) }, { ip });
    expect([200, 429]).toContain(codeOf(paid));
    if (codeOf(paid) === 429) expect(body(paid).msg).toMatch(/上限|频繁|已发送/);
    return codeOf(paid) === 200;
  }

  it('a stranger paying every challenge gets at most 5 + 5 codes an hour and 10 + 10 a day for one phone', async () => {
    startClock();
    const phone = newPhone();
    let hour = 0;
    for (let m = 0; m < 59; m++) {
      if (await pumpOnce(phone)) hour++;
      advance(61_000);
    }
    expect(hour).toBe(5 + CHALLENGE_LIMITS.perPhonePerHour);
    let day = hour;
    for (let h = 1; h < 12; h++) {
      for (let m = 0; m < 4; m++) {
        if (await pumpOnce(phone)) day++;
        advance(61_000);
      }
      advance(3600_000 - 4 * 61_000);
    }
    expect(day).toBe(10 + CHALLENGE_LIMITS.perPhonePerDay);
    // The last refusal on the challenge path is a 429, not a further challenge.
    const res = await call(USER_SEND, { phone });
    expect(codeOf(res)).toBe(1008);
    const paid = await call(USER_SEND, { phone, altcha: await solve(res) });
    expect(body(paid)).toMatchObject({
      code: 429,
      msg: expect.stringMatching(/^该手机号今日获取验证码次数已达上限/),
    });
  }, 240_000);

  it('one address paying challenges for many phones: its challenge budget ends in 429', async () => {
    startClock();
    const ip = newIp();
    let codes = 0;
    for (let i = 0; i < ctx.app.config.SMS_IP_HOURLY_LIMIT + CHALLENGE_LIMITS.perIpPerHour + 5; i++)
      if (await pumpOnce(newPhone(), ip)) codes++;
    expect(codes).toBe(ctx.app.config.SMS_IP_HOURLY_LIMIT + CHALLENGE_LIMITS.perIpPerHour);
  }, 240_000);

  it('a known device has its own cap: 5 an hour, 10 a day, then 429', async () => {
    startClock();
    const phone = newPhone();
    const device = await ownerLogsIn(phone);
    advance(2 * 3600_000);
    let hour = 0;
    let last: LightMyRequestResponse | undefined;
    for (let m = 0; m < 10; m++) {
      last = await call(USER_SEND, { phone }, { device });
      if (codeOf(last) === 200) hour++;
      advance(61_000);
    }
    expect(hour).toBe(KNOWN_DEVICE_LIMITS.perHour);
    expect(body(last!)).toMatchObject({
      code: 429,
      msg: expect.stringMatching(/^本设备本小时获取验证码次数已达上限/),
    });
    let day = hour;
    for (let h = 1; h < 6; h++) {
      advance(3600_000);
      for (let m = 0; m < 3; m++) {
        last = await call(USER_SEND, { phone }, { device });
        if (codeOf(last) === 200) day++;
        advance(61_000);
      }
    }
    expect(day).toBe(KNOWN_DEVICE_LIMITS.perDay);
    expect(body(last!)).toMatchObject({
      code: 429,
      msg: expect.stringMatching(/^本设备今日获取验证码次数已达上限/),
    });
    // A device token is bound to its phone: for another phone it is no device at all.
    const other = newPhone();
    expect(codeOf(await call(USER_SEND, { phone: other }, { device }))).toBe(200);
    const [otherCode] = await ctx.app.database.db
      .select({ holder: smsCodes.holderDeviceId })
      .from(smsCodes)
      .where(eq(smsCodes.phoneHash, ctx.app.services.phoneIndex(other)));
    expect(otherCode).toEqual({ holder: null });
  }, 120_000);
});
