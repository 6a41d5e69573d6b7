import { describe, expect, it } from 'vitest';
import { MATCHES_PER_USER_PER_HOUR } from '../src/modules/matching/routes.ts';
import { FORM } from './fixtures.ts';
import { BACKEND, body, createTestApp, loginAs, newPhone, post, secondInstance } from './helpers.ts';

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

  it("answers a channel's configuration from memory, and a code it has not read with the 503 envelope", async () => {
    const local = await createTestApp();
    try {
      const cached = await local.app.inject({ url: '/api/adChannel/h5Config?adChannelCode=demo-skin8' });
      expect(cached.statusCode).toBe(200);
      await local.shared.database.close();
      // Read before the outage: the ad burst goes on from the in-process cache.
      const again = await local.app.inject({ url: '/api/adChannel/h5Config?adChannelCode=demo-skin8' });
      expect(again.statusCode).toBe(200);
      expect(body<{ skin: number }>(again).data.skin).toBe(8);
      // Not read yet: the database is needed, and its failure is the envelope, not a hang or a crash.
      const miss = await local.app.inject({ url: '/api/adChannel/h5Config?adChannelCode=demo-skin10' });
      expect(miss.statusCode).toBe(503);
      expect(body(miss)).toMatchObject({ code: 503, data: { requestId: miss.headers['x-request-id'] } });
      expect(body(miss).msg).not.toMatch(/closed|terminat|pglite|ECONN/i);
    } finally {
      await local.close();
    }
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

  it('while Redis is gone, logged-in people go on with limits counted in the database; codes and staff logins refuse', async () => {
    // Instance A cannot reach Redis; instance B (same database) logs the person in.
    const down = await createTestApp({ env: { REDIS_URL: 'redis://127.0.0.1:1' } });
    const up = await secondInstance(down);
    try {
      const { token } = await loginAs(up);
      const save = () =>
        down.app.inject({
          method: 'POST',
          url: '/api/user/info/save',
          payload: FORM,
          headers: { accesstoken: token },
        });
      const first = await save();
      expect(first.statusCode, first.body).toBe(200);
      expect(body<{ matchId: number }>(first).data.matchId).toBeGreaterThan(0);
      // Still limited, not unlimited: the hourly match cap holds in the database.
      for (let i = 1; i < MATCHES_PER_USER_PER_HOUR; i++) expect((await save()).statusCode).toBe(200);
      const over = await save();
      expect(over.statusCode).toBe(429);
      expect(body(over).code).toBe(429);
      // Sending codes and staff logins refuse rather than count somewhere else.
      const send = await post(down.app, '/api/login/sendPhoneVerifyCode', { phone: newPhone() });
      expect(send.statusCode).toBe(503);
      const staff = await post(down.app, '/api/crm/admin/login', {
        phone: newPhone(),
        password: 'Secret-123456',
      });
      expect(staff.statusCode).toBe(503);
      expect(body(staff).msg).toBe('服务暂时不可用，请稍后重试');
      const health = await down.app.inject({ url: '/api/user/health' });
      expect(body(health).data).toMatchObject({ status: 'degraded', db: 'ok', redis: 'down' });
    } finally {
      await up.close();
      await down.close();
    }
  });
});
