import type { H5Config } from '@lm/shared/channel';
import type { AgreementData, OperatorInfo } from '@lm/shared/schemas/content';
import type { ProtocolData } from '@lm/shared/schemas/matching';
import type { OperatorDetail, OperatorItem } from '@lm/shared/schemas/operators';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog } from '../src/db/schema.ts';
import { DEMO_OPERATORS } from '../src/modules/operators/seed.ts';
import { API_MODES, FORM, saveForm } from './fixtures.ts';
import {
  BACKEND,
  body,
  devOutbox,
  loginAs,
  newIp,
  newPhone,
  staffLogin,
  type TestStaffRole,
  useTestApp,
} from './helpers.ts';

/**
 * One operator identity per channel (issue 44 item 10, ADR 057): the company a person contracts with is the
 * one the page they came through names — its footer, its agreements, the privacy policy, the consent they
 * give and the SMS signature all come from the channel's operator record.
 */
const ctx = useTestApp();
const app = () => ctx.app;

/** platform_param as the H5 sends it from a page of `channel`. */
const platform = (channel: string) =>
  JSON.stringify({ channel: 0, currentChannelCode: channel, deviceBrand: 'iphone', fingerprint: 'fp-op' });

const get = (url: string, headers: Record<string, string> = {}) =>
  app().inject({ method: 'GET', url, headers, remoteAddress: newIp() });

async function footerOf(channel: string): Promise<{ companyName: string; filingNumber: string }[]> {
  const res = await get(`/api/adChannel/h5Config${channel ? `?adChannelCode=${channel}` : ''}`);
  expect(res.statusCode).toBe(200);
  return body<H5Config>(res).data.footer;
}

async function agreementOf(code: string, channel: string): Promise<AgreementData> {
  const res = await get(`/api/agreement/${code}${channel ? `?adChannelCode=${channel}` : ''}`);
  expect(res.statusCode, res.body).toBe(200);
  return body<AgreementData>(res).data;
}

const allText = (a: AgreementData) =>
  [a.title, a.intro, ...a.sections.flatMap((s) => [s.heading, ...s.paragraphs])].join('\n');

/** The SMS a login code request from a page of `channel` sends: its text. */
async function loginSms(channel: string | null): Promise<string> {
  const phone = newPhone();
  const res = await app().inject({
    method: 'POST',
    url: '/api/login/sendPhoneVerifyCode',
    payload: { phone },
    headers: channel ? { platform_param: platform(channel) } : {},
    remoteAddress: newIp(),
  });
  expect(res.statusCode, res.body).toBe(200);
  const [sms] = await devOutbox(app(), phone);
  return sms!.message;
}

const demoOperator = (code: string) => DEMO_OPERATORS.find((o) => o.code === code)!;

describe(`one operator identity per channel (${BACKEND})`, () => {
  it.each([
    ['demo', 'xinghe'],
    ['demo-skin8', 'qianhai'],
  ])('on %s the footer, the agreements, the privacy policy and the SMS name one company', async (channel, op) => {
    const expected = demoOperator(op);
    // The footer: the channel's operator record, and only it.
    const footer = await footerOf(channel);
    expect(footer).toEqual([{ companyName: expected.companyName, filingNumber: expected.filingNumber }]);
    const company = footer[0]!.companyName;

    // The agreements name the same legal party, by its short name too.
    const register = await agreementOf('register-agreement', channel);
    expect(register.operator).toMatchObject({
      name: company,
      shortName: expected.shortName,
      licence: footer[0]!.filingNumber,
    });
    expect(allText(register)).toContain(`本协议是您与${company}之间`);
    expect(allText(register)).not.toContain('深圳市星河数字科技有限公司');

    // The privacy policy: the same handler of personal information, with its address and contacts.
    const privacy = allText(await agreementOf('privacy-agreement', channel));
    expect(privacy).toContain(`个人信息处理者：${company}`);
    for (const v of [expected.address, expected.servicePhone, expected.email]) expect(privacy).toContain(v);

    // The plain-text form (spec §7 protocol/{id}) names it too.
    const protocol = body<ProtocolData>(
      await get(`/api/user/info/protocol/register-agreement?adChannelCode=${channel}`),
    ).data;
    expect(protocol.content).toContain(company);

    // The login code is signed by that operator (the page's channel, from platform_param) …
    expect(await loginSms(channel)).toMatch(
      new RegExp(`^【${expected.smsSignature}】您的登录验证码为\\d{6}`),
    );
    // … or by the channel the body names (spec §7: mobile + channelCode).
    const phone = newPhone();
    const sent = await app().inject({
      method: 'POST',
      url: '/api/login/sendPhoneVerifyCode',
      payload: { mobile: phone, channelCode: channel },
      remoteAddress: newIp(),
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect((await devOutbox(app(), phone))[0]!.message.startsWith(`【${expected.smsSignature}】`)).toBe(true);

    // The operator call answers the same record.
    const info = body<OperatorInfo>(await get(`/api/content/operator?adChannelCode=${channel}`)).data;
    expect(info).toMatchObject({ name: company, email: expected.email, servicePhone: expected.servicePhone });
  });

  it('without a channel (or an unknown one) everything names the configured operator', async () => {
    const config = app().config;
    for (const channel of ['', 'no-such-channel']) {
      expect(await footerOf(channel)).toEqual([
        { companyName: config.OPERATOR_NAME, filingNumber: config.OPERATOR_LICENCE },
      ]);
      const a = await agreementOf('register-agreement', channel);
      expect(a.operator.name).toBe(config.OPERATOR_NAME);
      expect(await loginSms(channel || null)).toMatch(new RegExp(`^【${config.OPERATOR_SMS_SIGNATURE}】`));
    }
  });

  it('two channels of different operators are answered different texts and ETags', async () => {
    const a = await get('/api/agreement/register-agreement?adChannelCode=demo');
    const b = await get('/api/agreement/register-agreement?adChannelCode=demo-skin8');
    expect(a.headers.etag).not.toBe(b.headers.etag);
    // The ETag of one channel's text does not validate the other's.
    const other = await get('/api/agreement/register-agreement?adChannelCode=demo-skin8', {
      'if-none-match': a.headers.etag as string,
    });
    expect(other.statusCode).toBe(200);
  });

  it('the cancellation code is signed by the operator of the page, else of the channel the person came through', async () => {
    const cancelSms = async (headers: Record<string, string>) => {
      const { phone, token } = await loginAs(app(), newPhone(), { adChannelCode: 'demo-skin9' });
      const res = await app().inject({
        method: 'POST',
        url: '/api/cancellation/sendPhoneVerifyCode',
        headers: { accesstoken: token, ...headers },
        remoteAddress: newIp(),
      });
      expect(res.statusCode, res.body).toBe(200);
      return (await devOutbox(app(), phone))[0]!.message;
    };
    // Registered through demo-skin9 (云帆数科); asked from a page without a channel: the person's channel.
    expect(await cancelSms({})).toMatch(/^【云帆数科】您的注销账户验证码为\d{6}/);
    // Asked from a page of demo: that page's operator.
    expect(await cancelSms({ platform_param: platform('demo') })).toMatch(/^【星河融信】您的注销账户验证码/);
  });
});

describe(`the privacy export names who handles the data (${BACKEND})`, () => {
  it('the operator of the channel the person came through', async () => {
    const { token } = await loginAs(app(), newPhone(), { adChannelCode: 'demo-skin11' });
    const res = await get('/api/user/export', { accesstoken: token });
    expect(res.statusCode, res.body).toBe(200);
    const yunfan = demoOperator('yunfan');
    expect((res.json() as { operator: unknown }).operator).toEqual({
      name: yunfan.companyName,
      email: yunfan.email,
      servicePhone: yunfan.servicePhone,
    });
  });
});

describe(`the consent records the text naming the channel's operator (${BACKEND})`, () => {
  it('a consent given on demo-skin8 records 前海融通 as the provider, as the page showed it', async () => {
    const { token } = await loginAs(app(), newPhone(), { adChannelCode: 'demo-skin8' });
    const saved = await saveForm(app(), token, { ...FORM, adChannelCode: 'demo-skin8' });
    expect(saved.res.statusCode, saved.res.body).toBe(200);
    const offer = saved.offers.find((o) => API_MODES.has(o.linkType))!;
    expect(offer).toBeDefined();
    // What the authorise page shows for that lender on this channel …
    const shown = body<ProtocolData>(
      await get(
        `/api/user/info/protocol/information-agreement?productId=${offer.id}&adChannelCode=demo-skin8`,
      ),
    ).data;
    const qianhai = demoOperator('qianhai');
    expect(shown.content).toContain(`提供方：${qianhai.companyName}（以下简称“${qianhai.shortName}”`);
    // … and on another channel the text (and its hash) differ.
    const elsewhere = body<ProtocolData>(
      await get(`/api/user/info/protocol/information-agreement?productId=${offer.id}&adChannelCode=demo`),
    ).data;
    expect(elsewhere.textHash).not.toBe(shown.textHash);

    const auth = await app().inject({
      method: 'PUT',
      url: '/api/user/info/auth',
      payload: { productIds: [offer.id] },
      headers: { accesstoken: token },
    });
    expect(auth.statusCode, auth.body).toBe(200);
    const consentId = body<{ consented: { consentId: number }[] }>(auth).data.consented[0]!.consentId;
    const recorded = body<ProtocolData>(
      await get(`/api/user/info/protocol2/getContent?consentId=${consentId}`, { accesstoken: token }),
    ).data;
    // Exactly the text the person saw, with the operator they came through.
    expect(recorded).toMatchObject({ textHash: shown.textHash, content: shown.content, version: '2026.12' });
  });
});

describe(`console: operators (${BACKEND})`, () => {
  const call = (token: string | null, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    app().inject({
      method,
      url,
      headers: token ? { accesstoken: token } : {},
      remoteAddress: newIp(),
      ...(payload ? { payload } : {}),
    });
  const tokens = new Map<TestStaffRole, string>();
  const tokenOf = async (role: TestStaffRole) => {
    let token = tokens.get(role);
    if (!token) {
      token = (await staffLogin(app(), role, { name: `${role}-运营主体` })).token;
      tokens.set(role, token);
    }
    return token;
  };
  const fields = {
    companyName: '广州测试融信科技有限公司',
    shortName: '测试融信',
    filingNumber: '粤ICP备2026000088号-1',
    smsSignature: '【测试融信】',
    address: '广东省广州市天河区珠江新城测试路 1 号',
    servicePhone: '020-12345678',
    email: 'dpo@ceshi-rx.example.cn',
  };

  it('an edit of an operator is what the next visitor of its channels reads; a consent given before keeps its text', async () => {
    // A consent given on demo-skin10 (前海融通) before the edit.
    const { token } = await loginAs(app(), newPhone(), { adChannelCode: 'demo-skin10' });
    const saved = await saveForm(app(), token, { ...FORM, adChannelCode: 'demo-skin10' });
    const offer = saved.offers.find((o) => API_MODES.has(o.linkType))!;
    const auth = await app().inject({
      method: 'PUT',
      url: '/api/user/info/auth',
      payload: { productIds: [offer.id] },
      headers: { accesstoken: token },
    });
    expect(auth.statusCode, auth.body).toBe(200);
    const consentId = body<{ consented: { consentId: number }[] }>(auth).data.consented[0]!.consentId;
    const consented = () =>
      get(`/api/user/info/protocol2/getContent?consentId=${consentId}`, { accesstoken: token }).then(
        (r) => body<ProtocolData>(r).data,
      );
    const before = await consented();
    expect(before.content).toContain('深圳前海融通金融信息服务有限公司');
    // Cached by the channel service now.
    expect((await footerOf('demo-skin10'))[0]!.companyName).toBe('深圳前海融通金融信息服务有限公司');

    const op = await tokenOf('operator');
    const list = body<{ list: OperatorItem[] }>(await call(op, 'GET', '/api/admin/operators?q=qianhai')).data
      .list;
    const qianhai = list.find((o) => o.code === 'qianhai')!;
    expect(qianhai.channelCount).toBeGreaterThanOrEqual(8);
    const original = demoOperator('qianhai');
    const renamed = {
      ...original,
      companyName: '深圳前海新融通科技有限公司',
      shortName: '新融通',
      smsSignature: '新融通',
      filingNumber: '粤ICP备2026000333号',
    };
    const { code: _code, ...edit } = renamed;
    const res = await call(op, 'PUT', `/api/admin/operators/${qianhai.id}`, edit);
    expect(res.statusCode, res.body).toBe(200);
    const detail = body<OperatorDetail>(res).data;
    expect(detail.channels.map((c) => c.adChannelCode)).toContain('demo-skin10');

    // The next visitor: footer, agreements, SMS (no TTL to wait out).
    expect(await footerOf('demo-skin10')).toEqual([
      { companyName: '深圳前海新融通科技有限公司', filingNumber: '粤ICP备2026000333号' },
    ]);
    expect(allText(await agreementOf('register-agreement', 'demo-skin10'))).toContain(
      '本协议是您与深圳前海新融通科技有限公司之间',
    );
    expect(await loginSms('demo-skin10')).toMatch(/^【新融通】/);
    // The consent given before: the text it recorded, unchanged.
    expect(await consented()).toEqual(before);

    // Audited with before and after.
    const [entry] = await app()
      .database.db.select()
      .from(auditLog)
      .where(
        and(eq(auditLog.entity, 'operator'), eq(auditLog.entityId, 'qianhai'), eq(auditLog.action, 'update')),
      );
    expect(entry).toMatchObject({ staffName: 'operator-运营主体' });
    expect(entry!.before).toMatchObject({ companyName: original.companyName, smsSignature: '前海融通' });
    expect(entry!.after).toMatchObject({ companyName: '深圳前海新融通科技有限公司', smsSignature: '新融通' });

    // Put the demo record back for the other tests.
    const { code: _c, ...back } = original;
    expect((await call(op, 'PUT', `/api/admin/operators/${qianhai.id}`, back)).statusCode).toBe(200);
  });

  it('creates an operator (the signature typed with its brackets is stored without) and a channel picks it', async () => {
    const op = await tokenOf('admin');
    const res = await call(op, 'POST', '/api/admin/operators', { code: 'gz-ceshi', ...fields });
    expect(res.statusCode, res.body).toBe(200);
    const created = body<OperatorDetail>(res).data;
    expect(created).toMatchObject({
      code: 'gz-ceshi',
      smsSignature: '测试融信',
      channelCount: 0,
      channels: [],
    });
    const dup = await call(op, 'POST', '/api/admin/operators', { code: 'gz-ceshi', ...fields });
    expect(dup.statusCode).toBe(400);
    expect(body(dup).msg).toBe('运营主体编码 gz-ceshi 已存在');
    const choices = body<{ list: { code: string }[]; fallback: { companyName: string } }>(
      await call(op, 'GET', '/api/admin/operators/choices'),
    ).data;
    expect(choices.list.map((c) => c.code)).toContain('gz-ceshi');
    expect(choices.fallback.companyName).toBe(app().config.OPERATOR_NAME);
    const [entry] = await app()
      .database.db.select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'operator'), eq(auditLog.entityId, 'gz-ceshi')));
    expect(entry).toMatchObject({ action: 'create', before: null });

    // A channel picks it: its footer and its SMS name the new operator.
    const channel = await call(op, 'POST', '/api/admin/channels', {
      adChannelCode: 'gz-ceshi-1',
      name: '广州测试渠道',
      linkType: 4,
      skin: 17,
      operatorCode: 'gz-ceshi',
    });
    expect(channel.statusCode, channel.body).toBe(200);
    expect(await footerOf('gz-ceshi-1')).toEqual([
      { companyName: fields.companyName, filingNumber: fields.filingNumber },
    ]);
    expect(await loginSms('gz-ceshi-1')).toMatch(/^【测试融信】/);
    const detail = body<OperatorDetail>(await call(op, 'GET', `/api/admin/operators/${created.id}`)).data;
    expect(detail.channels).toEqual([expect.objectContaining({ adChannelCode: 'gz-ceshi-1' })]);
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    [
      'a one-character SMS signature',
      { smsSignature: '借' },
      'smsSignature',
      '短信签名为 2 到 12 个汉字、字母或数字',
    ],
    [
      'a 13-character SMS signature',
      { smsSignature: '【一二三四五六七八九十一二三】' },
      'smsSignature',
      '短信签名为 2 到 12 个',
    ],
    ['a signature with a space', { smsSignature: '星河 融信' }, 'smsSignature', '不含【】、空格和标点'],
    [
      'a filing number without ICP',
      { filingNumber: '京备2026000001号' },
      'filingNumber',
      '备案号格式应为“京ICP备2026000001号”',
    ],
    ['a filing number without 号', { filingNumber: '京ICP备2026000001' }, 'filingNumber', '备案号格式应为'],
    ['a malformed e-mail', { email: 'dpo-at-example' }, 'email', '个人信息保护联系邮箱格式不正确'],
    ['a malformed service phone', { servicePhone: '12345' }, 'servicePhone', '客服电话格式不正确'],
    ['an upper-case code', { code: 'GZ' }, 'code', '运营主体编码为 2 到 32 位小写字母'],
  ])('refuses %s with a clear Chinese 400 naming the field', async (_what, change, field, message) => {
    const res = await call(await tokenOf('operator'), 'POST', '/api/admin/operators', {
      code: 'bad-one',
      ...fields,
      ...change,
    });
    expect(res.statusCode, res.body).toBe(400);
    const answer = body<{ fields: { field: string; message: string }[] }>(res);
    expect(answer.msg).toContain(message);
    expect(answer.data.fields.map((f) => f.field)).toContain(field);
  });

  it('follows the console roles: a viewer reads, a channel partner nothing; nobody without a token', async () => {
    const viewer = await tokenOf('viewer');
    expect((await call(viewer, 'GET', '/api/admin/operators')).statusCode).toBe(200);
    const edit = await call(viewer, 'PUT', '/api/admin/operators/1', { ...fields });
    expect(edit.statusCode).toBe(403);
    expect(body(edit).msg).toBe('没有权限执行此操作');
    expect((await call(viewer, 'POST', '/api/admin/operators', { code: 'v-op', ...fields })).statusCode).toBe(
      403,
    );
    expect((await call(await tokenOf('channel_partner'), 'GET', '/api/admin/operators')).statusCode).toBe(
      403,
    );
    expect((await call(null, 'GET', '/api/admin/operators')).statusCode).toBe(401);
    expect((await call(await tokenOf('operator'), 'GET', '/api/admin/operators/2147483647')).statusCode).toBe(
      404,
    );
  });
});
