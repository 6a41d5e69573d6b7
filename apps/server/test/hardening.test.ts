import type { FastifyPluginAsync } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKEND, body, createTestApp, loginAs, newPhone, post, type TestContext } from './helpers.ts';

const logLines: string[] = [];
const failing: FastifyPluginAsync = async (app) => {
  app.get('/api/test/boom', async () => {
    throw new Error('secret internals: password=hunter2 at /srv/app/db.ts:42');
  });
};

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({
    plugins: [failing],
    env: { LOG_LEVEL: 'info' },
    logStream: { write: (line: string) => void logLines.push(line) },
  });
});
afterAll(async () => ctx?.close());

describe(`envelope and hardening (${BACKEND})`, () => {
  it('answers unknown routes with the 404 envelope', async () => {
    const res = await ctx.app.inject({ url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(body(res)).toMatchObject({ code: 404, msg: expect.stringContaining('/api/nope'), data: null });
  });

  it('answers a malformed path (bad percent-encoding) with the 400 envelope', async () => {
    for (const url of ['/api/news/%E0%A0%8', '/api/agreement/%', '/api/admin/channels/%ZZ']) {
      const res = await ctx.app.inject({ url });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code: 400, msg: '请求地址格式不正确', data: null });
      // Answered before any hook runs, yet with the request id and a JSON answer's security headers.
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    }
  });

  it('hides internals of a 5xx and logs it with the request id', async () => {
    // Not from a trusted proxy (TRUST_PROXY is off): the caller's id is ignored, a new one is made.
    const res = await ctx.app.inject({ url: '/api/test/boom', headers: { 'x-request-id': 'req-12345678' } });
    expect(res.statusCode).toBe(500);
    const id = res.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body(res)).toEqual({ code: 500, msg: '服务器错误', data: { requestId: id } });
    expect(res.body).not.toContain('secret');
    const logged = logLines.find((l) => l.includes('unhandled error'));
    expect(logged).toBeDefined();
    expect(JSON.parse(logged!).reqId).toBe(id);
  });

  it('refuses malformed JSON, wrong content types, empty and oversized bodies', async () => {
    const bad = await post(ctx.app, '/api/login', '{"phone": "1380', { 'content-type': 'application/json' });
    expect(body(bad)).toMatchObject({ code: 400, msg: '请求体不是有效的 JSON' });
    const xml = await post(ctx.app, '/api/login', '<phone/>', { 'content-type': 'application/xml' });
    expect(xml.statusCode).toBe(415);
    expect(body(xml).code).toBe(415);
    const huge = await post(ctx.app, '/api/login', JSON.stringify({ phone: 'x'.repeat(2_000_000) }), {
      'content-type': 'application/json',
    });
    expect(huge.statusCode).toBe(413);
    expect(body(huge).code).toBe(413);
    const none = await ctx.app.inject({ method: 'POST', url: '/api/login' });
    expect(body(none).code).toBe(400);
  });

  it('names the field in validation errors, in Chinese', async () => {
    const cases: [unknown, RegExp][] = [
      [{ phone: '' }, /^请输入手机号$/],
      [{ phone: '12345678901' }, /^手机号格式不正确$/],
      [{ phone: 13812345678 }, /手机号|phone/],
      [{ phone: '13812345678'.repeat(20) }, /手机号格式不正确/],
      [{ phone: '13812345678', code: '12ab56' }, /验证码为6位数字/],
      [{ phone: '13812345678', code: '123456', adChannelCode: 'a b' }, /渠道码.*（adChannelCode）/],
      [{ phone: '13812345678', code: '123456', abTestType: 'seventeen' }, /abTestType/],
      [{ phone: '13812345678', code: '123456', isFormReq: 'maybe' }, /isFormReq/],
      [[1, 2], /body|对象|object/i],
    ];
    for (const [payload, msg] of cases) {
      const res = await post(ctx.app, '/api/login', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      const b = body<{ fields: { field: string }[] }>(res);
      expect(b.code).toBe(400);
      expect(b.msg).toMatch(msg);
      expect(b.data.fields.length).toBeGreaterThan(0);
    }
    const q = await ctx.app.inject({ url: '/api/getEncryptionMobile?source=partner' });
    expect(body(q).code).toBe(400);
    expect(body(q).msg).toContain('encryptionMobile');
  });

  it('sends the API header set on API answers, refusals included (ADR 036)', async () => {
    for (const res of [
      await ctx.app.inject({ url: '/api/user/health' }),
      await ctx.app.inject({ url: '/api/getLoginUserInfo' }),
      await ctx.app.inject({ url: '/api/no/such/call' }),
      await ctx.app.inject({ method: 'POST', url: '/api/login', payload: {} }),
    ]) {
      expect(res.headers['x-content-type-options'], res.body).toBe('nosniff');
      // Opened as a page, an answer may load, run and be framed by nothing.
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(res.headers['strict-transport-security']).toContain('max-age=');
      expect(res.headers['content-type']).toContain('application/json');
      // The document headers are the pages' business.
      for (const name of [
        'permissions-policy',
        'x-frame-options',
        'referrer-policy',
        'cross-origin-opener-policy',
      ]) {
        expect(res.headers[name], name).toBeUndefined();
      }
    }
    const health = await ctx.app.inject({ url: '/api/user/health' });
    expect(body(health).data).toMatchObject({ status: 'ok', db: 'ok' });
  });

  it('keeps the document set on what /api serves as a page or file (the API document)', async () => {
    const res = await ctx.app.inject({ url: '/api/docs' });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['permissions-policy']).toContain('camera=()');
  });

  it('publishes an OpenAPI document generated from the schemas', async () => {
    const res = await ctx.app.inject({ url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as {
      openapi: string;
      paths: Record<string, Record<string, { requestBody?: unknown }>>;
    };
    expect(doc.openapi).toMatch(/^3\./);
    for (const path of [
      '/api/login/sendPhoneVerifyCode',
      '/api/login',
      '/api/logout',
      '/api/getLoginUserInfo',
      '/api/getUserLoginVO',
      '/api/userApi/getUserDetailVO',
      '/api/user/health',
      '/api/cancellation/sendPhoneVerifyCode',
      '/api/cancellation',
      '/api/getEncryptionMobile',
      '/api/upStreamUnionLogin/checkMobileLogin',
      '/api/crm/admin/login/sendPhoneVerifyCode',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
    expect(JSON.stringify(doc.paths['/api/login'])).toContain('abTestType');
  });

  it('never writes a phone number or token to the log in clear', async () => {
    const phone = newPhone();
    const { token } = await loginAs(ctx.app, phone);
    await ctx.app.inject({ url: '/api/getLoginUserInfo', headers: { accesstoken: token } });
    await ctx.app.inject({ url: `/api/dev/sms-outbox?phone=${phone}` });
    const all = logLines.join('\n');
    expect(all).toContain('SMS (console provider)');
    expect(all).not.toContain(phone);
    expect(all).not.toContain(token);
  });
});
