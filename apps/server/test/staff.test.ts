import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staff } from '../src/db/schema.ts';
import {
  BACKEND,
  body,
  createTestApp,
  latestCode,
  newIp,
  newPhone,
  post,
  type TestContext,
} from './helpers.ts';

let ctx: TestContext;
const password = 'correct horse battery';
let adminPhone: string;
let viewerPhone: string;
let viewerId: number;

beforeAll(async () => {
  ctx = await createTestApp();
  adminPhone = newPhone();
  viewerPhone = newPhone();
  await ctx.app.services.staff.create({ phone: adminPhone, name: '管理员', role: 'admin', password });
  viewerId = (
    await ctx.app.services.staff.create({ phone: viewerPhone, name: '只读', role: 'viewer', password })
  ).id;
});
afterAll(async () => ctx?.close());

const staffLogin = (payload: Record<string, unknown>, ip = newIp()) =>
  ctx.app.inject({ method: 'POST', url: '/api/crm/admin/login', payload, remoteAddress: ip });

describe(`staff login (${BACKEND})`, () => {
  it('logs in with a password, stores an argon2 hash, and reaches /api/admin/me', async () => {
    const res = await staffLogin({ phone: adminPhone, password });
    expect(res.statusCode).toBe(200);
    const { token, staff: member } = body<{ token: string; staff: { role: string; mobile: string } }>(
      res,
    ).data;
    expect(member).toMatchObject({ role: 'admin', name: '管理员', mobile: expect.stringContaining('****') });
    const me = await ctx.app.inject({ url: '/api/admin/me', headers: { accesstoken: token } });
    expect(body(me).data).toMatchObject({ role: 'admin' });
    const rows = await ctx.app.database.db.select().from(staff);
    for (const r of rows) expect(r.passwordHash).toMatch(/^\$argon2id\$/);
  });

  it('answers 1000 for a wrong password or unknown phone and locks after five failures', async () => {
    const wrong = await staffLogin({ phone: viewerPhone, password: 'nope' });
    expect(body(wrong)).toEqual({ code: 1000, msg: '登录名或密码错误', data: null });
    const unknown = await staffLogin({ phone: newPhone(), password });
    expect(body(unknown).code).toBe(1000);
    const phone = newPhone();
    await ctx.app.services.staff.create({ phone, name: '锁定测试', role: 'operator', password });
    for (let i = 0; i < 5; i++)
      expect(body(await staffLogin({ phone, password: `bad-${i}` })).code).toBe(1000);
    const locked = await staffLogin({ phone, password });
    expect(locked.statusCode).toBe(429);
    expect(body(locked).msg).toContain('锁定');
  });

  it('logs in with an SMS code sent only to staff phones', async () => {
    const sent = await ctx.app.inject({
      method: 'POST',
      url: '/api/crm/admin/login/sendPhoneVerifyCode',
      payload: { phone: viewerPhone },
      remoteAddress: newIp(),
    });
    expect(body(sent).code).toBe(200);
    const code = await latestCode(ctx.app, viewerPhone);
    expect(body(await staffLogin({ phone: viewerPhone, code })).code).toBe(200);

    const stranger = newPhone();
    const strangerSent = await post(ctx.app, '/api/crm/admin/login/sendPhoneVerifyCode', { phone: stranger });
    expect(body(strangerSent).code).toBe(200);
    const outbox = await ctx.app.inject({ url: `/api/dev/sms-outbox?phone=${stranger}` });
    expect(body<unknown[]>(outbox).data).toHaveLength(0);
  });

  it('enforces roles: a viewer gets 403 on admin calls; disabled accounts answer 1007', async () => {
    const admin = body<{ token: string }>(await staffLogin({ phone: adminPhone, password })).data.token;
    const viewer = body<{ token: string }>(await staffLogin({ phone: viewerPhone, password })).data.token;

    const denied = await ctx.app.inject({ url: '/api/admin/staff', headers: { accesstoken: viewer } });
    expect(denied.statusCode).toBe(403);
    expect(body(denied).code).toBe(403);
    const list = await ctx.app.inject({ url: '/api/admin/staff', headers: { accesstoken: admin } });
    expect(body<unknown[]>(list).data.length).toBeGreaterThanOrEqual(2);

    const disable = await ctx.app.inject({
      method: 'PUT',
      url: `/api/admin/staff/${viewerId}/status`,
      payload: { status: 'disabled' },
      headers: { accesstoken: admin },
    });
    expect(body(disable).code).toBe(200);
    const after = await ctx.app.inject({ url: '/api/admin/me', headers: { accesstoken: viewer } });
    expect(body(after).code).toBe(1005);
    const relogin = await staffLogin({ phone: viewerPhone, password });
    expect(body(relogin)).toMatchObject({ code: 1007, msg: '账号已被禁用，请联系管理员' });
    const code = await post(ctx.app, '/api/crm/admin/login/sendPhoneVerifyCode', { phone: viewerPhone });
    expect(body(code).code).toBe(1007);

    // A user token is not a staff token.
    const none = await ctx.app.inject({ url: '/api/admin/me' });
    expect(body(none).code).toBe(401);
  });
});
