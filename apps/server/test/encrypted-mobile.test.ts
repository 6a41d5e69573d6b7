import { describe, expect, it } from 'vitest';
import { partnerEncrypt } from '../src/lib/crypto.ts';
import { BACKEND, body, latestCode, loginAs, newIp, newPhone, post, useTestApp } from './helpers.ts';

const ctx = useTestApp();

const encrypt = (source: string, phone: string) =>
  partnerEncrypt(ctx.app.services.keys.partnerKeys.get(source)!, phone);

describe(`encrypted phone links (${BACKEND})`, () => {
  it('decrypts on the server into a masked phone and a ticket that sends a code and logs in', async () => {
    const phone = newPhone();
    const encryptionMobile = encrypt('partner', phone);
    const res = await ctx.app.inject({
      url: `/api/getEncryptionMobile?encryptionMobile=${encodeURIComponent(encryptionMobile)}&source=partner&channelCode=demo`,
    });
    expect(res.statusCode).toBe(200);
    const data = body<{ mobile: string; ticket: string; expiresIn: number }>(res).data;
    expect(data.mobile).toBe(`${phone.slice(0, 3)}****${phone.slice(7)}`);
    expect(data.ticket).toMatch(/^emt\./);
    expect(data.ticket).not.toContain(phone);
    expect(data.expiresIn).toBe(600);

    const check = await post(ctx.app, '/api/upStreamUnionLogin/checkMobileLogin', {
      encryptionMobile,
      source: 'partner',
    });
    expect(body(check).data).toEqual({ registered: false });

    const sent = await ctx.app.inject({
      method: 'POST',
      url: '/api/login/sendPhoneVerifyCode',
      payload: { encryptionMobile: data.ticket },
      remoteAddress: newIp(),
    });
    expect(body(sent).code).toBe(200);
    const code = await latestCode(ctx.app, phone);
    const login = await post(ctx.app, '/api/login', {
      encryptionMobile: data.ticket,
      code,
      adChannelCode: 'demo',
    });
    expect(body(login).code).toBe(200);

    const checkAgain = await post(ctx.app, '/api/upStreamUnionLogin/checkMobileLogin', {
      encryptionMobile: data.ticket,
    });
    expect(body(checkAgain).data).toEqual({ registered: true });
  });

  it('accepts the partner ciphertext with its source directly, in ECB and CBC', async () => {
    for (const source of ['partner', 'cbc']) {
      const phone = newPhone();
      const sent = await ctx.app.inject({
        method: 'POST',
        url: '/api/login/sendPhoneVerifyCode',
        payload: { encryptionMobile: encrypt(source, phone), source },
        remoteAddress: newIp(),
      });
      expect(body(sent).code).toBe(200);
      expect(await latestCode(ctx.app, phone)).toMatch(/^\d{6}$/);
    }
  });

  it('refuses garbage, an unknown source, the wrong key, an expired or forged ticket', async () => {
    const phone = newPhone();
    const cases = [
      { encryptionMobile: 'bm90LWEtcGhvbmU=', source: 'partner' },
      { encryptionMobile: encrypt('partner', phone), source: 'nobody' },
      { encryptionMobile: encrypt('partner', phone), source: 'cbc' },
      { encryptionMobile: encrypt('partner', 'not-a-phone'), source: 'partner' },
      { encryptionMobile: 'emt.k2.AAAA.BBBB.CCCC' },
    ];
    for (const payload of cases) {
      const res = await post(ctx.app, '/api/login/sendPhoneVerifyCode', payload);
      expect(body(res)).toMatchObject({ code: 1003, msg: expect.stringContaining('手机号') });
    }
    const missingSource = await post(ctx.app, '/api/login/sendPhoneVerifyCode', {
      encryptionMobile: encrypt('partner', phone),
    });
    expect(body(missingSource).code).toBe(400);
    expect(body(missingSource).msg).toContain('source');

    const { seal } = await import('../src/lib/crypto.ts');
    const expired = `emt.${seal(ctx.app.services.keys.ring, { p: phone, exp: Date.now() - 1 })}`;
    expect(
      body(await post(ctx.app, '/api/login/sendPhoneVerifyCode', { encryptionMobile: expired })).code,
    ).toBe(1003);
  });

  it('caps lookups per IP (they tell whether a phone has an account)', async () => {
    const ip = newIp();
    const encryptionMobile = encodeURIComponent(encrypt('partner', newPhone()));
    const statuses: number[] = [];
    for (let i = 0; i < 122; i++) {
      const res = await ctx.app.inject({
        url: `/api/getEncryptionMobile?encryptionMobile=${encryptionMobile}&source=partner`,
        remoteAddress: ip,
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(120);
    expect(statuses.slice(120)).toEqual([429, 429]);
    const check = await ctx.app.inject({
      method: 'POST',
      url: '/api/upStreamUnionLogin/checkMobileLogin',
      payload: { encryptionMobile: decodeURIComponent(encryptionMobile), source: 'partner' },
      remoteAddress: ip,
    });
    expect(body(check).msg).toContain('查询过于频繁');
  });

  it('needs a phone carrier', async () => {
    const res = await post(ctx.app, '/api/login/sendPhoneVerifyCode', { channelCode: 'demo' });
    expect(body(res)).toMatchObject({ code: 400, msg: '请输入手机号' });
    const ok = await loginAs(ctx.app);
    expect(ok.token).toBeTruthy();
  });
});
