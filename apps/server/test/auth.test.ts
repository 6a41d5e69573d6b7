import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.ts';
import { applicationDrafts, sessions, smsCodes, smsOutbox, users } from '../src/db/schema.ts';
import {
  BACKEND,
  body,
  createTestApp,
  devOutbox,
  latestCode,
  loginAs,
  newIp,
  newPhone,
  post,
  sendCancellationCode,
  sendCode,
  useTestApp,
} from './helpers.ts';

const ctx = useTestApp();

const auth = (token: string) => ({ accesstoken: token });

describe(`login journey (${BACKEND})`, () => {
  it('sends a code, logs in, uses the token, is replaced by a new login, logs out', async () => {
    const { app } = ctx;
    const phone = newPhone();
    const sent = await sendCode(app, phone);
    expect(sent.statusCode).toBe(200);
    expect(body(sent)).toEqual({
      code: 200,
      msg: 'success',
      data: { mobile: `${phone.slice(0, 3)}****${phone.slice(7)}`, retryAfter: 60, expiresIn: 300 },
    });

    const code = await latestCode(app, phone);
    expect(code).toMatch(/^\d{6}$/);
    const login = await post(app, '/api/login', {
      phone,
      code,
      adChannelCode: 'demo',
      abTestType: '17',
      isFormReq: true,
    });
    expect(login.statusCode).toBe(200);
    const { token, loginUser } = body<{
      token: string;
      loginUser: { uid: number; userInfoStatus: number; coverStatus: number };
    }>(login).data;
    expect(token.length).toBeGreaterThanOrEqual(40);
    expect(loginUser).toEqual({ uid: expect.any(Number), userInfoStatus: 0, coverStatus: 0 });

    const info = await app.inject({ url: '/api/getLoginUserInfo', headers: auth(token) });
    expect(body(info).data).toMatchObject({
      uid: loginUser.uid,
      mobile: `${phone.slice(0, 3)}****${phone.slice(7)}`,
      adChannelCode: 'demo',
      adChannelId: expect.any(Number),
    });
    const detail = await app.inject({ url: '/api/userApi/getUserDetailVO', headers: auth(token) });
    expect(body(detail).data).toEqual({
      uid: loginUser.uid,
      mobile: expect.stringContaining('****'),
      adChannelId: expect.any(Number),
    });
    const vo = await app.inject({ url: `/api/getUserLoginVO?uid=${loginUser.uid}`, headers: auth(token) });
    expect(body(vo).code).toBe(200);

    // The person's choices at login are recorded.
    const [row] = await app.database.db.select().from(users).where(eq(users.id, loginUser.uid));
    expect(row).toMatchObject({ abTestType: 17, isFormReq: true, status: 'active' });

    // Logging in again (after the one-minute resend wait) replaces the first session.
    await app.services.limiter.store.clear(`sms:phone:minute:login:${app.services.phoneIndex(phone)}`);
    const second = await loginAs(app, phone);
    expect(second.uid).toBe(loginUser.uid);
    const old = await app.inject({ url: '/api/getLoginUserInfo', headers: auth(token) });
    expect(old.statusCode).toBe(401);
    expect(body(old)).toEqual({ code: 1006, msg: '账号已在其他地方登录，请重新登录', data: null });

    const out = await app.inject({ method: 'POST', url: '/api/logout', headers: auth(second.token) });
    expect(body(out).code).toBe(200);
    const after = await app.inject({ url: '/api/getLoginUserInfo', headers: auth(second.token) });
    expect(body(after)).toMatchObject({ code: 1005, msg: '授权已过期，请重新登录' });
  });

  it('answers 401 without a token and with an unknown one, 1005 for an expired one', async () => {
    const { app } = ctx;
    const none = await app.inject({ url: '/api/getLoginUserInfo' });
    expect(none.statusCode).toBe(401);
    expect(body(none).code).toBe(401);
    const unknown = await app.inject({ url: '/api/getLoginUserInfo', headers: auth('x'.repeat(43)) });
    expect(body(unknown).code).toBe(401);

    const { token, uid } = await loginAs(app);
    await app.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, uid));
    const expired = await app.inject({ url: '/api/getLoginUserInfo', headers: auth(token) });
    expect(body(expired).code).toBe(1005);
  });

  it('lets a person read only their own login record', async () => {
    const a = await loginAs(ctx.app);
    const b = await loginAs(ctx.app);
    const res = await ctx.app.inject({ url: `/api/getUserLoginVO?uid=${b.uid}`, headers: auth(a.token) });
    expect(res.statusCode).toBe(403);
    expect(body(res).code).toBe(403);
  });

  it('stores the phone encrypted and the code hashed', async () => {
    const { app } = ctx;
    const { phone, uid } = await loginAs(app);
    const raw = rowsOf<Record<string, unknown>>(
      await app.database.db.execute(sql`select * from users where id = ${uid}`),
    )[0]!;
    expect(JSON.stringify(raw)).not.toContain(phone);
    expect(String(raw.mobile_enc)).toMatch(/^v1\.k2\./);
    const codes = await app.database.db
      .select()
      .from(smsCodes)
      .where(eq(smsCodes.phoneHash, app.services.phoneIndex(phone)));
    expect(codes.length).toBeGreaterThan(0);
    for (const c of codes) expect(c.codeHash).not.toMatch(/^\d{6}$/);
  });
});

describe(`verification codes (${BACKEND})`, () => {
  it('answers VERIFICATION_CODE_REQUIRED without a code and LOGIN_FAILED with a wrong one', async () => {
    const phone = newPhone();
    await sendCode(ctx.app, phone);
    const missing = await post(ctx.app, '/api/login', { phone });
    expect(body(missing)).toEqual({ code: 1001, msg: '请输入验证码', data: null });
    const empty = await post(ctx.app, '/api/login', { phone, code: '' });
    expect(body(empty).code).toBe(400);
    const right = await latestCode(ctx.app, phone);
    const wrong = right === '000000' ? '111111' : '000000';
    const bad = await post(ctx.app, '/api/login', { phone, code: wrong });
    expect(body(bad)).toMatchObject({ code: 1002, msg: '登录失败，请检查验证码' });
    // The right code still works after one wrong try.
    expect(body(await post(ctx.app, '/api/login', { phone, code: right })).code).toBe(200);
  });

  it('is single use and bound to the phone it was sent to', async () => {
    const phone = newPhone();
    const other = newPhone();
    await sendCode(ctx.app, phone);
    await sendCode(ctx.app, other);
    const code = await latestCode(ctx.app, phone);
    const otherCode = await latestCode(ctx.app, other);
    if (otherCode !== code) {
      expect(body(await post(ctx.app, '/api/login', { phone: other, code })).code).toBe(1002);
    }
    expect(body(await post(ctx.app, '/api/login', { phone, code })).code).toBe(200);
    expect(body(await post(ctx.app, '/api/login', { phone, code })).code).toBe(1002);
  });

  it('lets exactly one of many simultaneous logins with the same code through', async () => {
    const phone = newPhone();
    await sendCode(ctx.app, phone);
    const code = await latestCode(ctx.app, phone);
    const results = await Promise.all(
      Array.from({ length: 8 }, () => post(ctx.app, '/api/login', { phone, code })),
    );
    expect(results.filter((r) => body(r).code === 200)).toHaveLength(1);
    expect(results.filter((r) => body(r).code === 1002)).toHaveLength(7);
    const [user] = await ctx.app.database.db
      .select()
      .from(users)
      .where(eq(users.mobileHash, ctx.app.services.phoneIndex(phone)));
    const active = await ctx.app.database.db.select().from(sessions).where(eq(sessions.userId, user!.id));
    expect(active.filter((s) => s.revokedAt === null)).toHaveLength(1);
  });

  it('dies after five wrong tries', async () => {
    const phone = newPhone();
    await sendCode(ctx.app, phone);
    const right = await latestCode(ctx.app, phone);
    const wrong = right === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++)
      expect(body(await post(ctx.app, '/api/login', { phone, code: wrong })).code).toBe(1002);
    const res = await post(ctx.app, '/api/login', { phone, code: right });
    expect(body(res).code).toBe(1002);
  });

  it('expires after five minutes', async () => {
    const phone = newPhone();
    await sendCode(ctx.app, phone);
    const code = await latestCode(ctx.app, phone);
    await ctx.app.database.db
      .update(smsCodes)
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where(eq(smsCodes.phoneHash, ctx.app.services.phoneIndex(phone)));
    expect(body(await post(ctx.app, '/api/login', { phone, code })).code).toBe(1002);
  });

  it('is replaced by a newer code', async () => {
    const phone = newPhone();
    await sendCode(ctx.app, phone);
    const first = await latestCode(ctx.app, phone);
    await ctx.app.services.limiter.store.clear(
      `sms:phone:minute:login:${ctx.app.services.phoneIndex(phone)}`,
    );
    await sendCode(ctx.app, phone);
    const second = await latestCode(ctx.app, phone);
    if (first !== second)
      expect(body(await post(ctx.app, '/api/login', { phone, code: first })).code).toBe(1002);
    expect(body(await post(ctx.app, '/api/login', { phone, code: second })).code).toBe(200);
  });

  it('refuses checks after 100 failures an hour for one phone', async () => {
    const phone = newPhone();
    await sendCode(ctx.app, phone);
    const code = await latestCode(ctx.app, phone);
    const key = `verify:fail:${ctx.app.services.phoneIndex(phone)}`;
    for (let i = 0; i < 100; i++) await ctx.app.services.limiter.record(key, { ms: 3600_000 });
    const res = await post(ctx.app, '/api/login', { phone, code });
    expect(res.statusCode).toBe(429);
    expect(body(res).msg).toContain('验证失败次数过多');
  });
});

describe(`send limits (${BACKEND})`, () => {
  const minuteKey = (phone: string) => `sms:phone:minute:login:${ctx.app.services.phoneIndex(phone)}`;

  it('allows one code a minute per phone and says when to retry', async () => {
    const phone = newPhone();
    expect((await sendCode(ctx.app, phone)).statusCode).toBe(200);
    const again = await sendCode(ctx.app, phone);
    expect(again.statusCode).toBe(429);
    const b = body<{ retryAfter: number }>(again);
    expect(b.code).toBe(429);
    expect(b.msg).toMatch(/验证码已发送，请\d+秒后再试/);
    expect(b.data.retryAfter).toBeGreaterThan(0);
    expect(b.data.retryAfter).toBeLessThanOrEqual(60);
  });

  it('allows five an hour and ten a day per phone', async () => {
    const phone = newPhone();
    for (let i = 0; i < 5; i++) {
      await ctx.app.services.limiter.store.clear(minuteKey(phone));
      expect((await sendCode(ctx.app, phone)).statusCode).toBe(200);
    }
    await ctx.app.services.limiter.store.clear(minuteKey(phone));
    const sixth = await sendCode(ctx.app, phone);
    expect(body(sixth).msg).toContain('本小时');

    const ph = ctx.app.services.phoneIndex(phone);
    for (let i = 5; i < 10; i++) {
      await ctx.app.services.limiter.store.clear(minuteKey(phone));
      await ctx.app.services.limiter.store.clear(`sms:phone:hour:${ph}`);
      expect((await sendCode(ctx.app, phone)).statusCode).toBe(200);
    }
    await ctx.app.services.limiter.store.clear(minuteKey(phone));
    await ctx.app.services.limiter.store.clear(`sms:phone:hour:${ph}`);
    const eleventh = await sendCode(ctx.app, phone);
    expect(eleventh.statusCode).toBe(429);
    expect(body(eleventh).msg).toContain('今日');
    const sent = await ctx.app.database.db.select().from(smsOutbox).where(eq(smsOutbox.phoneHash, ph));
    expect(sent).toHaveLength(10);
  });
});

describe(`SMS pumping defence (${BACKEND})`, () => {
  it('caps codes per client IP and per device across many phones', async () => {
    const local = await createTestApp({ env: { SMS_IP_HOURLY_LIMIT: '3', SMS_DEVICE_HOURLY_LIMIT: '2' } });
    try {
      const ip = newIp();
      const results = [];
      for (let i = 0; i < 5; i++) results.push((await sendCode(local.app, newPhone(), ip)).statusCode);
      expect(results).toEqual([200, 200, 200, 429, 429]);

      const device = { platform_param: JSON.stringify({ channel: 0, fingerprint: 'fp-abc' }) };
      const byDevice = [];
      for (let i = 0; i < 4; i++) {
        const res = await local.app.inject({
          method: 'POST',
          url: '/api/login/sendPhoneVerifyCode',
          payload: { phone: newPhone() },
          headers: device,
          remoteAddress: newIp(),
        });
        byDevice.push(res.statusCode);
        if (res.statusCode === 429) expect(body(res).msg).toContain('当前设备');
      }
      expect(byDevice).toEqual([200, 200, 429, 429]);
    } finally {
      await local.close();
    }
  });
});

describe(`account cancellation (${BACKEND})`, () => {
  it('erases the phone, revokes the session and lets the phone register again', async () => {
    const { app } = ctx;
    const { phone, token, uid } = await loginAs(app);
    const draft = await post(
      app,
      '/api/user/info/tempSave',
      { realName: '张三', applyLimit: 2 },
      auth(token),
    );
    expect(body(draft).code).toBe(200);
    const noCode = await post(app, '/api/cancellation', {}, auth(token));
    expect(body(noCode).code).toBe(1001);

    expect(body(await sendCancellationCode(app, token)).code).toBe(200);
    const message = (await devOutbox(app, phone))[0]!;
    expect(message.message).toContain('注销');

    const wrong = await post(
      app,
      '/api/cancellation',
      { code: message.code === '000000' ? '111111' : '000000' },
      auth(token),
    );
    expect(body(wrong).code).toBe(1002);
    const done = await post(app, '/api/cancellation', { code: message.code }, auth(token));
    expect(body(done).code).toBe(200);

    const [row] = await app.database.db.select().from(users).where(eq(users.id, uid));
    expect(row).toMatchObject({
      status: 'cancelled',
      mobileEnc: null,
      mobileHash: null,
      mobileMasked: '已注销',
    });
    expect(body(await app.inject({ url: '/api/getLoginUserInfo', headers: auth(token) })).code).toBe(1005);
    const drafts = await app.database.db
      .select()
      .from(applicationDrafts)
      .where(eq(applicationDrafts.userId, uid));
    expect(drafts).toHaveLength(0);
    const left = await app.database.db
      .select()
      .from(smsCodes)
      .where(eq(smsCodes.phoneHash, app.services.phoneIndex(phone)));
    expect(left).toHaveLength(0);

    // A minute later, the same phone registers as a new person.
    await app.services.limiter.store.clear(`sms:phone:minute:login:${app.services.phoneIndex(phone)}`);
    const again = await loginAs(app, phone);
    expect(again.uid).not.toBe(uid);
  });
});
