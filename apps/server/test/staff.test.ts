import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, channels, staff } from '../src/db/schema.ts';
import { BACKEND, body, createTestApp, latestCode, newIp, newPhone, post, useTestApp } from './helpers.ts';

const ctx = useTestApp();
const password = 'correct horse battery';
let adminPhone: string;
let viewerPhone: string;
let viewerId: number;

beforeAll(async () => {
  adminPhone = newPhone();
  viewerPhone = newPhone();
  await ctx.app.services.staff.create({ phone: adminPhone, name: '管理员', role: 'admin', password });
  viewerId = (
    await ctx.app.services.staff.create({ phone: viewerPhone, name: '只读', role: 'viewer', password })
  ).id;
});

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

  it('answers 1000 for a wrong password or unknown phone and locks after five failures from one address', async () => {
    const wrong = await staffLogin({ phone: viewerPhone, password: 'nope' });
    expect(body(wrong)).toEqual({ code: 1000, msg: '登录名或密码错误', data: null });
    const unknown = await staffLogin({ phone: newPhone(), password });
    expect(body(unknown).code).toBe(1000);
    const phone = newPhone();
    await ctx.app.services.staff.create({ phone, name: '锁定测试', role: 'operator', password });
    const ip = newIp();
    for (let i = 0; i < 5; i++)
      expect(body(await staffLogin({ phone, password: `bad-${i}` }, ip)).code).toBe(1000);
    const locked = await staffLogin({ phone, password }, ip);
    expect(locked.statusCode).toBe(429);
    expect(body(locked).msg).toContain('锁定');
    // The lock is of that address (security/lockouts.test.ts has the rest).
    expect(body(await staffLogin({ phone, password })).code).toBe(200);
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
    expect(body<{ total: number }>(list).data.total).toBeGreaterThanOrEqual(2);

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

describe(`staff accounts and channel partners (${BACKEND})`, () => {
  const as = (token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    ctx.app.inject({ method, url, headers: { accesstoken: token }, ...(payload ? { payload } : {}) });
  const tokenOf = async (phone: string, pw = password) =>
    body<{ token: string }>(await staffLogin({ phone, password: pw })).data.token;
  const auditOf = (entityId: number) =>
    ctx.app.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'staff'), eq(auditLog.entityId, String(entityId))))
      .orderBy(auditLog.id);

  it('an admin creates, lists, edits and disables accounts; every change is audit-logged', async () => {
    const admin = await tokenOf(adminPhone);
    const phone = newPhone();
    const created = await as(admin, 'POST', '/api/admin/staff', {
      phone,
      name: '  新运营 ',
      role: 'operator',
      password: 'operator password 1',
    });
    expect(created.statusCode).toBe(200);
    const member = body<{ id: number; mobile: string; role: string; hasPassword: boolean; status: string }>(
      created,
    ).data;
    expect(member).toMatchObject({ name: '新运营', role: 'operator', status: 'active', hasPassword: true });
    expect(member.mobile).toBe(`${phone.slice(0, 3)}****${phone.slice(7)}`);
    expect(body(await staffLogin({ phone, password: 'operator password 1' })).code).toBe(200);

    const dup = await as(admin, 'POST', '/api/admin/staff', { phone, name: '重复', role: 'viewer' });
    expect(dup.statusCode).toBe(400);
    expect(body(dup).msg).toContain('已有后台账号');
    const shortPw = await as(admin, 'POST', '/api/admin/staff', {
      phone: newPhone(),
      name: '短密码',
      role: 'viewer',
      password: 'short',
    });
    expect(body(shortPw).code).toBe(400);

    const byPhone = await as(admin, 'GET', `/api/admin/staff?keyword=${phone}`);
    expect(body<{ total: number; list: { id: number }[] }>(byPhone).data).toMatchObject({
      total: 1,
      list: [{ id: member.id }],
    });
    const paged = body<{ total: number; page: number; pageSize: number; list: unknown[] }>(
      await as(admin, 'GET', '/api/admin/staff?pageSize=1&page=2&sort=createdAt&order=desc'),
    ).data;
    expect(paged).toMatchObject({ page: 2, pageSize: 1 });
    expect(paged.list).toHaveLength(1);
    expect(paged.total).toBeGreaterThanOrEqual(3);
    const operators = body<{ list: { role: string }[] }>(
      await as(admin, 'GET', '/api/admin/staff?role=operator'),
    ).data.list;
    expect(operators.length).toBeGreaterThan(0);
    expect(operators.every((o) => o.role === 'operator')).toBe(true);
    expect((await as(admin, 'GET', '/api/admin/staff?sort=passwordHash')).statusCode).toBe(400);

    const edited = await as(admin, 'PUT', `/api/admin/staff/${member.id}`, {
      name: '资深运营',
      role: 'viewer',
    });
    expect(body(edited).data).toMatchObject({ name: '资深运营', role: 'viewer' });
    const disabled = await as(admin, 'PUT', `/api/admin/staff/${member.id}/status`, { status: 'disabled' });
    expect(body(disabled).data).toMatchObject({ status: 'disabled' });
    expect(body(await staffLogin({ phone, password: 'operator password 1' })).code).toBe(1007);

    const entries = await auditOf(member.id);
    expect(entries.map((e) => e.action)).toEqual(['create', 'update', 'status']);
    expect(entries[0]?.after).toMatchObject({ role: 'operator', loginMethods: 'password+sms' });
    expect(JSON.stringify(entries)).not.toContain('operator password 1');
    expect(JSON.stringify(entries)).not.toContain(phone);
    expect(entries[1]).toMatchObject({
      before: { role: 'operator' },
      after: { role: 'viewer', name: '资深运营' },
    });
    expect(entries[2]).toMatchObject({ before: { status: 'active' }, after: { status: 'disabled' } });
    expect(entries.every((e) => e.staffName === '管理员')).toBe(true);
  }, 120_000);

  it('only admins manage accounts; nobody changes their own role or status', async () => {
    const operatorPhone = newPhone();
    await ctx.app.services.staff.create({ phone: operatorPhone, name: '运营', role: 'operator', password });
    const operator = await tokenOf(operatorPhone);
    for (const [method, url, payload] of [
      ['GET', '/api/admin/staff', undefined],
      ['POST', '/api/admin/staff', { phone: newPhone(), name: '越权', role: 'admin' }],
      ['PUT', `/api/admin/staff/${viewerId}`, { role: 'admin' }],
      ['PUT', `/api/admin/staff/${viewerId}/status`, { status: 'active' }],
      ['POST', `/api/admin/staff/${viewerId}/reset-password`, {}],
    ] as const) {
      const res = await as(operator, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    const admin = await tokenOf(adminPhone);
    const me = body<{ id: number }>(await as(admin, 'GET', '/api/admin/me')).data;
    expect((await as(admin, 'PUT', `/api/admin/staff/${me.id}`, { role: 'viewer' })).statusCode).toBe(403);
    expect(
      (await as(admin, 'PUT', `/api/admin/staff/${me.id}/status`, { status: 'disabled' })).statusCode,
    ).toBe(403);
    expect((await as(admin, 'PUT', '/api/admin/staff/999999', { name: '无' })).statusCode).toBe(404);
  });

  it('creates channel-partner logins bound to existing channels', async () => {
    const admin = await tokenOf(adminPhone);
    await ctx.app.database.db
      .insert(channels)
      .values([
        { adChannelCode: 'stf-partner-a', name: '合作渠道A' },
        { adChannelCode: 'stf-partner-b', name: '合作渠道B' },
      ])
      .onConflictDoNothing();
    const noChannels = await as(admin, 'POST', '/api/admin/staff', {
      phone: newPhone(),
      name: '渠道方',
      role: 'channel_partner',
    });
    expect(body(noChannels)).toMatchObject({ code: 400, msg: expect.stringContaining('至少需要一个渠道') });
    const unknown = await as(admin, 'POST', '/api/admin/staff', {
      phone: newPhone(),
      name: '渠道方',
      role: 'channel_partner',
      channelCodes: ['stf-nope'],
    });
    expect(body(unknown).msg).toContain('渠道不存在：stf-nope');
    const staffWithChannels = await as(admin, 'POST', '/api/admin/staff', {
      phone: newPhone(),
      name: '运营',
      role: 'operator',
      channelCodes: ['stf-partner-a'],
    });
    expect(body(staffWithChannels).code).toBe(400);

    const phone = newPhone();
    const created = await as(admin, 'POST', '/api/admin/staff', {
      phone,
      name: '渠道方A',
      role: 'channel_partner',
      channelCodes: ['stf-partner-a'],
      password: 'partner password',
    });
    const partner = body<{ id: number; channelCodes: string[] }>(created).data;
    expect(partner.channelCodes).toEqual(['stf-partner-a']);
    const login = body<{ token: string; staff: { role: string; channelCodes: string[] } }>(
      await staffLogin({ phone, password: 'partner password' }),
    ).data;
    expect(login.staff).toMatchObject({ role: 'channel_partner', channelCodes: ['stf-partner-a'] });
    expect((await as(login.token, 'GET', '/api/admin/funnel')).statusCode).toBe(200);
    expect((await as(login.token, 'GET', '/api/admin/funnel?channelCode=stf-partner-b')).statusCode).toBe(
      403,
    );
    expect((await as(login.token, 'GET', '/api/admin/staff')).statusCode).toBe(403);

    // Moving the partner to channel B applies at once.
    const moved = await as(admin, 'PUT', `/api/admin/staff/${partner.id}`, {
      channelCodes: ['stf-partner-b'],
    });
    expect(body(moved).data).toMatchObject({ channelCodes: ['stf-partner-b'] });
    expect((await as(login.token, 'GET', '/api/admin/funnel?channelCode=stf-partner-a')).statusCode).toBe(
      403,
    );
    expect((await as(login.token, 'GET', '/api/admin/funnel?channelCode=stf-partner-b')).statusCode).toBe(
      200,
    );
    // A role change away from partner drops the channels.
    const promoted = await as(admin, 'PUT', `/api/admin/staff/${partner.id}`, { role: 'viewer' });
    expect(body(promoted).data).toMatchObject({ role: 'viewer', channelCodes: [] });
  }, 120_000);

  it('resets a password: generated once, old one refused, sessions ended, lock lifted', async () => {
    const admin = await tokenOf(adminPhone);
    const phone = newPhone();
    const member = await ctx.app.services.staff.create({ phone, name: '忘记密码', role: 'viewer', password });
    const oldSession = await tokenOf(phone);
    const ip = newIp();
    for (let i = 0; i < 5; i++) await staffLogin({ phone, password: `wrong-${i}` }, ip);
    expect((await staffLogin({ phone, password }, ip)).statusCode).toBe(429);

    const reset = await as(admin, 'POST', `/api/admin/staff/${member.id}/reset-password`, {});
    const generated = body<{ password: string }>(reset).data.password;
    expect(generated).toMatch(/^[A-Za-z2-9]{14}$/);
    expect(body(await as(oldSession, 'GET', '/api/admin/me')).code).toBe(1005);
    expect(body(await staffLogin({ phone, password })).code).toBe(1000);
    expect(body(await staffLogin({ phone, password: generated }, ip)).code).toBe(200);

    const chosen = await as(admin, 'POST', `/api/admin/staff/${member.id}/reset-password`, {
      password: 'chosen by the admin',
    });
    expect(body(chosen).data).toEqual({ password: null });
    expect(body(await staffLogin({ phone, password: 'chosen by the admin' })).code).toBe(200);
    const entries = await auditOf(member.id);
    // The lock's start, by no staff member, then the two resets.
    expect(entries.map((e) => e.action)).toEqual(['login-lock', 'reset-password', 'reset-password']);
    expect(entries[0]).toMatchObject({ staffId: null, ip, after: { scope: 'address' } });
    expect(JSON.stringify(entries)).not.toContain(generated);
    expect(JSON.stringify(entries)).not.toContain('chosen by the admin');
  }, 120_000);

  it('never leaves the console without an active admin', async () => {
    // Through the API an admin cannot demote or disable itself, so another admin always remains; the
    // service refuses too (e.g. two admins demoting each other at the same time).
    const solo = await createTestApp();
    try {
      const only = await solo.app.services.staff.create({ phone: newPhone(), name: '甲', role: 'admin' });
      await expect(solo.app.services.staff.setStatus(only.id, 'disabled')).rejects.toMatchObject({
        message: '至少需要保留一个启用的管理员账号',
      });
      await expect(solo.app.services.staff.update(only.id, { role: 'operator' })).rejects.toMatchObject({
        code: 400,
      });
      const other = await solo.app.services.staff.create({ phone: newPhone(), name: '乙', role: 'admin' });
      expect((await solo.app.services.staff.update(only.id, { role: 'operator' })).after.role).toBe(
        'operator',
      );
      await expect(solo.app.services.staff.setStatus(other.id, 'disabled')).rejects.toMatchObject({
        code: 400,
      });
    } finally {
      await solo.close();
    }
  });

  it('limits login attempts per IP', async () => {
    const ip = newIp();
    // SMS-code attempts for unknown phones: the cheapest wrong logins (no password hashing).
    for (let i = 0; i < 30; i++) {
      const res = await staffLogin({ phone: newPhone(), code: '123456' }, ip);
      expect(body(res).code).toBe(1000);
    }
    const blocked = await staffLogin({ phone: adminPhone, password }, ip);
    expect(blocked.statusCode).toBe(429);
    expect(body(blocked).msg).toContain('登录尝试过于频繁');
    expect(body(await staffLogin({ phone: adminPhone, password })).code).toBe(200);
  });
});
