import { describe, expect, it } from 'vitest';
import { BACKEND, body, createTestApp, newPhone, post } from './helpers.ts';

/**
 * The database going away must not crash the process: requests answer the 503 envelope and the
 * API recovers by itself when connections come back.
 */
describe(`database outage (${BACKEND})`, () => {
  it('answers the 503 envelope when the database is gone, and health says so', async () => {
    const local = await createTestApp();
    await local.shared.database.close();
    const res = await post(local.app, '/api/login/sendPhoneVerifyCode', { phone: newPhone() });
    const b = body(res);
    expect(res.statusCode).toBe(503);
    expect(b.code).toBe(503);
    expect(b.msg).not.toMatch(/closed|terminat|pglite|ECONN/i);
    expect(typeof b.code).toBe('number');
    const health = await local.app.inject({ url: '/api/user/health' });
    expect(body(health).data).toMatchObject({ status: 'degraded', db: 'down' });
    await local.close();
  });

  it('refuses to send codes while Redis is unreachable instead of allowing unlimited SMS', async () => {
    const local = await createTestApp({ env: { REDIS_URL: 'redis://127.0.0.1:1' } });
    try {
      const res = await post(local.app, '/api/login/sendPhoneVerifyCode', { phone: newPhone() });
      expect(res.statusCode).toBe(503);
      expect(body(res)).toMatchObject({ code: 503, msg: '服务暂时不可用，请稍后重试' });
      const health = await local.app.inject({ url: '/api/user/health' });
      expect(body(health).data).toMatchObject({ status: 'degraded', redis: 'down' });
      const outbox = await local.app.inject({ url: '/api/dev/sms-outbox?phone=13800000000' });
      expect(body<unknown[]>(outbox).data).toHaveLength(0);
    } finally {
      await local.close();
    }
  });
});
