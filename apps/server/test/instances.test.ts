import { describe, expect, it } from 'vitest';
import {
  BACKEND,
  body,
  latestCode,
  loginAs,
  newIp,
  newPhone,
  useSecondInstance,
  useTestApp,
} from './helpers.ts';

const ctx = useTestApp();
const b = useSecondInstance(ctx);

describe(`two API instances on one database${BACKEND.includes('redis') ? ' and one Redis' : ''} (${BACKEND})`, () => {
  it('share sessions: a token from A works on B, a new login on B replaces it on A', async () => {
    const phone = newPhone();
    const first = await loginAs(ctx.app, phone);
    const onB = await b.app.inject({ url: '/api/getLoginUserInfo', headers: { accesstoken: first.token } });
    expect(body(onB).code).toBe(200);

    await ctx.app.services.limiter.store.clear(
      `sms:phone:minute:login:${ctx.app.services.phoneIndex(phone)}`,
    );
    const second = await loginAs(b.app, phone);
    expect(second.uid).toBe(first.uid);
    const onA = await ctx.app.inject({ url: '/api/getLoginUserInfo', headers: { accesstoken: first.token } });
    expect(body(onA).code).toBe(1006);
  });

  it('share limits: a code sent through A blocks a resend through B, and the code works on B', async () => {
    const phone = newPhone();
    const ip = newIp();
    const viaA = await ctx.app.inject({
      method: 'POST',
      url: '/api/login/sendPhoneVerifyCode',
      payload: { phone },
      remoteAddress: ip,
    });
    expect(body(viaA).code).toBe(200);
    const viaB = await b.app.inject({
      method: 'POST',
      url: '/api/login/sendPhoneVerifyCode',
      payload: { phone },
      remoteAddress: ip,
    });
    expect(body(viaB).code).toBe(429);
    const code = await latestCode(b.app, phone);
    const login = await b.app.inject({ method: 'POST', url: '/api/login', payload: { phone, code } });
    expect(body(login).code).toBe(200);
  });

  it('share the IP cap across instances', async () => {
    const ip = newIp();
    const cap = ctx.app.config.SMS_IP_HOURLY_LIMIT;
    let allowed = 0;
    for (let i = 0; i < cap + 4; i++) {
      const app = i % 2 === 0 ? ctx.app : b.app;
      const res = await app.inject({
        method: 'POST',
        url: '/api/login/sendPhoneVerifyCode',
        payload: { phone: newPhone() },
        remoteAddress: ip,
      });
      if (res.statusCode === 200) allowed++;
    }
    expect(allowed).toBe(cap);
  });
});
