import type {
  PartnerItem,
  PartnerList,
  PartnerSecretData,
  ProductDetail,
  ProductList,
  RuleTesterData,
} from '@lm/shared/schemas/admin-catalog';
import type { ProductOffer } from '@lm/shared/schemas/matching';
import { and, count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  leads,
  matchOffers,
  matchRuns,
  partners,
  productCounters,
  products,
} from '../src/db/schema.ts';
import { decryptField } from '../src/lib/crypto.ts';
import { DEMO_PARTNERS } from '../src/modules/products/seed.ts';
import { FORM, saveForm } from './fixtures.ts';
import { BACKEND, body, createTestApp, loginAs, staffLogin, type TestContext } from './helpers.ts';
import { pointLendersAt, signedCallback } from './lenders.ts';
import { LocalPartner } from './partner-server.ts';

let ctx: TestContext;
let partner: LocalPartner;
const tokens: Record<'admin' | 'operator' | 'viewer', string> = { admin: '', operator: '', viewer: '' };
/** The secret each lender currently signs with (changes when a test rotates it). */
const secrets = new Map(DEMO_PARTNERS.map((p) => [p.code, p.signingSecret!]));

const db = () => ctx.app.database.db;

async function staffToken(role: 'admin' | 'operator' | 'viewer'): Promise<string> {
  return (await staffLogin(ctx.app, role)).token;
}

function call(role: keyof typeof tokens, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  return ctx.app.inject({
    method,
    url,
    headers: { accesstoken: tokens[role] },
    ...(payload ? { payload } : {}),
  });
}

async function partnerByCode(code: string) {
  const [row] = await db().select().from(partners).where(eq(partners.code, code));
  return row!;
}

async function productByCode(code: string) {
  const [row] = await db().select().from(products).where(eq(products.code, code));
  return row!;
}

/** The PUT body of an existing product (every field, as the console's edit form sends it). */
async function productBodyOf(id: number) {
  const d = body<ProductDetail>(await call('operator', 'GET', `/api/admin/products/${id}`)).data;
  return {
    partnerId: d.partnerId,
    productName: d.productName,
    companyType: d.companyType,
    institutionType: d.institutionType,
    thirdpartyType: d.thirdpartyType,
    partnerProductName: d.partnerProductName,
    linkType: d.linkType,
    amountMinFen: d.amountMinFen,
    amountMaxFen: d.amountMaxFen,
    termMinMonths: d.termMinMonths,
    termMaxMonths: d.termMaxMonths,
    aprBps: d.aprBps,
    targetUrl: d.targetUrl,
    rules: d.rules,
    dailyCap: d.dailyCap,
    totalCap: d.totalCap,
    priority: d.priority,
    priceFen: d.priceFen,
    activeHours: d.activeHours,
    sharedFields: d.sharedFields,
  };
}

async function auditOf(entity: string, entityId: number | string) {
  return db()
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entity, entity), eq(auditLog.entityId, String(entityId))))
    .orderBy(auditLog.id);
}

/** A person who saves FORM; answers the offered products. */
async function matchForm(
  form: Record<string, unknown> = FORM,
): Promise<{ token: string; offers: ProductOffer[] }> {
  const { token } = await loginAs(ctx.app);
  const { res, offers } = await saveForm(ctx.app, token, form);
  expect(res.statusCode, res.body).toBe(200);
  return { token, offers };
}

/** A tester profile the FORM person would send, without a real ID (age stated instead). */
const SAMPLE = {
  applyLimit: FORM.applyLimit,
  job: FORM.job,
  socialSecurity: FORM.socialSecurity,
  housingFund: FORM.housingFund,
  insurance: FORM.insurance,
  houseProperty: FORM.houseProperty,
  carProperty: FORM.carProperty,
  sesameCredit: FORM.sesameCredit,
  creditInvestigation: FORM.creditInvestigation,
  workCityCode: FORM.workCityCode,
  age: 36,
};

beforeAll(async () => {
  partner = new LocalPartner((path) => secrets.get(path.split('/')[1] ?? '') ?? 'unknown');
  await partner.start();
  ctx = await createTestApp({
    env: { DELIVERY_TIMEOUT_MS: '500', DELIVERY_BACKOFF_BASE_MS: '10', PARTNER_TEST_ORIGINS: partner.url },
  });
  // No test depends on real DNS: the lenders' example names resolve to a public address.
  ctx.app.services.partnerHttp.policy.resolve = async (host) => {
    if (host.endsWith('.example.org') || host.endsWith('.example.com')) return ['93.184.215.14'];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  };
  await pointLendersAt(ctx.app, partner.url);
  tokens.admin = await staffToken('admin');
  tokens.operator = await staffToken('operator');
  tokens.viewer = await staffToken('viewer');
});
afterAll(async () => {
  await partner?.stop();
  await ctx?.close();
});

describe(`console: partners (${BACKEND})`, () => {
  const newPartner = {
    code: 'test-lender',
    legalName: '测试融资担保有限公司',
    licenceNumber: '测金小贷备字〔2026〕099号',
    contactName: '孙经理',
    contactPhone: '13811112222',
    apiEndpoint: 'https://lender.example.org/leads',
    allowedHosts: ['lender.example.org'],
    deliveryModes: { '2': 'api', '1': 'h5Redirect' },
  };

  it('creates a partner: contact phone encrypted and masked, the secret answered once, audited without secrets', async () => {
    const res = await call('operator', 'POST', '/api/admin/partners', newPartner);
    expect(res.statusCode, res.body).toBe(200);
    const { partner: created, secret } = body<PartnerSecretData>(res).data;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({
      code: 'test-lender',
      contactPhoneMasked: '138****2222',
      hasSecret: true,
    });
    const row = await partnerByCode('test-lender');
    expect(row.contactPhoneEnc).not.toContain('13811112222');
    expect(decryptField(ctx.app.services.keys.ring, row.contactPhoneEnc)).toBe('13811112222');
    expect(decryptField(ctx.app.services.keys.ring, row.signingSecretEnc!)).toBe(secret);
    // Never again: the detail has no secret.
    const detail = await call('viewer', 'GET', `/api/admin/partners/${created.id}`);
    expect(detail.body).not.toContain(secret);
    expect(detail.body).not.toContain('13811112222');
    const [entry] = await auditOf('partner', created.id);
    expect(entry).toMatchObject({ action: 'create', staffName: '测试operator' });
    expect(JSON.stringify(entry)).not.toContain(secret);
    expect(JSON.stringify(entry)).not.toContain('13811112222');

    const dup = await call('operator', 'POST', '/api/admin/partners', newPartner);
    expect(dup.statusCode).toBe(400);
    expect(body(dup).msg).toContain('已存在');
  });

  it('validates: public https endpoints only (http for allow-listed local lenders outside production), hostnames, phone', async () => {
    const bad = async (patch: object) => {
      const res = await call('operator', 'POST', '/api/admin/partners', {
        ...newPartner,
        code: 'x-bad',
        ...patch,
      });
      expect(res.statusCode, res.body).toBe(400);
      return body(res).msg;
    };
    expect(await bad({ apiEndpoint: 'http://lender.example.org/leads' })).toContain('https');
    expect(await bad({ allowedHosts: ['https://lender.example.org/'] })).toContain('域名格式不正确');
    expect(await bad({ contactPhone: '12345' })).toContain('联系电话');
    expect(await bad({ legalName: '' })).toContain('法定名称');
    // Any loopback is not enough (it was until issue 15): only the exact allow-listed origin.
    expect(await bad({ apiEndpoint: 'http://127.0.0.1:9999/leads' })).toContain('https');
    const local = await call('operator', 'POST', '/api/admin/partners', {
      ...newPartner,
      code: 'local-lender',
      apiEndpoint: `${partner.url}/leads`,
    });
    expect(local.statusCode, local.body).toBe(200);
  });

  it('edits, lists with search and sort; a viewer reads but gets 403 on every change', async () => {
    const row = await partnerByCode('test-lender');
    const res = await call('admin', 'PUT', `/api/admin/partners/${row.id}`, {
      ...newPartner,
      contactPhone: undefined,
      legalName: '测试融资担保股份有限公司',
      status: 'suspended',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(body<PartnerItem>(res).data).toMatchObject({
      legalName: '测试融资担保股份有限公司',
      status: 'suspended',
      contactPhoneMasked: '138****2222',
    });
    const entries = await auditOf('partner', row.id);
    expect(entries.at(-1)).toMatchObject({
      action: 'update',
      before: { legalName: '测试融资担保有限公司', status: 'active' },
      after: { legalName: '测试融资担保股份有限公司', status: 'suspended' },
    });

    const list = body<PartnerList>(
      await call('viewer', 'GET', '/api/admin/partners?q=%E6%B5%8B%E8%AF%95&status=suspended'),
    ).data;
    expect(list.list.map((p) => p.code)).toEqual(['test-lender']);
    const sorted = body<PartnerList>(
      await call('viewer', 'GET', '/api/admin/partners?sort=legalName&order=asc&pageSize=200'),
    ).data;
    expect(sorted.total).toBeGreaterThanOrEqual(DEMO_PARTNERS.length + 2);
    const withProducts = sorted.list.find((p) => p.code === 'partner-a')!;
    expect(withProducts.productCount).toBeGreaterThan(0);
    expect((await call('viewer', 'GET', '/api/admin/partners?sort=password')).statusCode).toBe(400);

    expect((await call('viewer', 'PUT', `/api/admin/partners/${row.id}`, newPartner)).statusCode).toBe(403);
    expect(
      (await call('viewer', 'POST', '/api/admin/partners', { ...newPartner, code: 'v' })).statusCode,
    ).toBe(403);
    expect((await call('viewer', 'POST', `/api/admin/partners/${row.id}/rotate-secret`)).statusCode).toBe(
      403,
    );
    expect((await ctx.app.inject({ url: '/api/admin/partners' })).statusCode).toBe(401);
  });
});

describe(`console: products (${BACKEND})`, () => {
  it('lists with today’s live counters and caps, filters and sorts by APR', async () => {
    const p = await productByCode('a-xinyongdai');
    const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    await db()
      .insert(productCounters)
      .values({ productId: p.id, day: today, count: 7 })
      .onConflictDoUpdate({ target: [productCounters.productId, productCounters.day], set: { count: 7 } });
    await db()
      .insert(productCounters)
      .values({ productId: p.id, day: '2020-01-01', count: 99 })
      .onConflictDoNothing();
    const res = await call(
      'viewer',
      'GET',
      `/api/admin/products?partnerId=${p.partnerId}&sort=aprBps&order=asc`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const list = body<ProductList>(res).data;
    const item = list.list.find((x) => x.code === 'a-xinyongdai')!;
    expect(item).toMatchObject({
      todayCount: 7,
      dailyCap: 500,
      totalCap: 20_000,
      partnerName: '星河消费金融有限公司',
    });
    expect(list.list.every((x) => x.partnerId === p.partnerId)).toBe(true);
    const aprs = list.list.map((x) => x.aprBps ?? Number.POSITIVE_INFINITY);
    expect(aprs).toEqual([...aprs].sort((a, b) => a - b));

    const drafts = body<ProductList>(await call('viewer', 'GET', '/api/admin/products?status=draft')).data;
    expect(drafts.list.length).toBeGreaterThan(0);
    expect(drafts.list.every((x) => x.status === 'draft')).toBe(true);
    expect((await call('viewer', 'GET', '/api/admin/products?sort=rules')).statusCode).toBe(400);
    expect((await call('viewer', 'GET', '/api/admin/products?linkType=12')).statusCode).toBe(400);
  });

  it('creates a draft, refuses a target URL off the lender’s allowed hosts and invalid rules with 400', async () => {
    const a = await partnerByCode('partner-a');
    const base = {
      code: 'a-new',
      partnerId: a.id,
      productName: '星河新客贷',
      companyType: 'KAInstitution',
      institutionType: 1,
      linkType: 1,
      amountMinFen: 100_000,
      amountMaxFen: 5_000_000,
      termMinMonths: 3,
      termMaxMonths: 24,
      aprBps: 1500,
      targetUrl: 'https://partner-a.example.com/new',
      rules: { citiesIn: ['440300'], ageMin: 22, ageMax: 50, jobs: ['employee'] },
      dailyCap: 100,
      priority: 10,
      priceFen: 5000,
      activeHours: { from: '09:00', to: '21:00' },
      sharedFields: ['realName', 'mobile'],
    };
    const bad = async (patch: object) => {
      const res = await call('operator', 'POST', '/api/admin/products', { ...base, ...patch });
      expect(res.statusCode, res.body).toBe(400);
      return body(res).msg;
    };
    expect(await bad({ targetUrl: 'https://evil.example.net/x' })).toContain('允许的域名');
    expect(await bad({ amountMinFen: 9_000_000 })).toContain('最低额度不能高于最高额度');
    expect(await bad({ rules: { ageMin: 50, ageMax: 20 } })).toContain('最低年龄不能大于最高年龄');
    expect(await bad({ rules: { citiesIn: ['999999'] } })).toContain('城市编码');
    expect(await bad({ rules: { minIncome: 5 } })).toContain('不支持的字段');
    expect(await bad({ activeHours: { from: '9:00', to: '21:00' } })).toContain('HH:MM');

    const res = await call('operator', 'POST', '/api/admin/products', base);
    expect(res.statusCode, res.body).toBe(200);
    const created = body<ProductDetail>(res).data;
    expect(created).toMatchObject({ status: 'draft', aprBps: 1500, rules: base.rules, publishProblems: [] });
    const [entry] = await auditOf('product', created.id);
    expect(entry).toMatchObject({ action: 'create', after: { productName: '星河新客贷', aprBps: 1500 } });
  });

  it('refuses publishing above 24 % and without a lender legal name, with the reasons in Chinese; audits before/after', async () => {
    const p = await productByCode('a-paused');
    const payload = { ...(await productBodyOf(p.id)), aprBps: 3000 };
    const edit = await call('operator', 'PUT', `/api/admin/products/${p.id}`, payload);
    expect(edit.statusCode, edit.body).toBe(200);
    expect(body<ProductDetail>(edit).data.publishProblems.map((x) => x.code)).toContain('APR_TOO_HIGH');
    const entries = await auditOf('product', p.id);
    expect(entries.at(-1)).toMatchObject({
      action: 'update',
      before: { aprBps: 1200 },
      after: { aprBps: 3000 },
    });

    const publish = await call('operator', 'PUT', `/api/admin/products/${p.id}/status`, {
      status: 'published',
    });
    expect(publish.statusCode).toBe(400);
    expect(body(publish).msg).toContain('综合年化利率30.00%超过24%，不能上架');
    expect((await productByCode('a-paused')).status).toBe('paused');

    // 24 % exactly is allowed.
    await call('operator', 'PUT', `/api/admin/products/${p.id}`, { ...payload, aprBps: 2400 });
    const ok = await call('operator', 'PUT', `/api/admin/products/${p.id}/status`, { status: 'published' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(body<ProductDetail>(ok).data.status).toBe('published');
    expect((await auditOf('product', p.id)).at(-1)).toMatchObject({
      action: 'status',
      before: { status: 'paused' },
      after: { status: 'published' },
    });
    // A published product cannot be edited past the ceiling.
    const over = await call('operator', 'PUT', `/api/admin/products/${p.id}`, { ...payload, aprBps: 2401 });
    expect(over.statusCode).toBe(400);
    expect(body(over).msg).toContain('超过24%');
    await call('operator', 'PUT', `/api/admin/products/${p.id}/status`, { status: 'paused' });

    // No lender legal name (a lender record with a blank name).
    const b = await partnerByCode('partner-b');
    await db().update(partners).set({ legalName: ' ' }).where(eq(partners.id, b.id));
    const [draftOfB] = await db()
      .insert(products)
      .values({
        code: 'b-noname',
        partnerId: b.id,
        productName: '无名贷',
        companyType: 'RegionInstitution',
        institutionType: 4,
        linkType: 2,
        amountMinFen: 100_000,
        amountMaxFen: 1_000_000,
        termMinMonths: 3,
        termMaxMonths: 12,
        aprBps: 1800,
      })
      .returning();
    const refused = await call('admin', 'PUT', `/api/admin/products/${draftOfB!.id}/status`, {
      status: 'published',
    });
    expect(refused.statusCode).toBe(400);
    expect(body(refused).msg).toContain('未填写放款机构的法定名称');
    expect(body<{ problems: { code: string }[] }>(refused).data.problems.map((x) => x.code)).toEqual([
      'LEGAL_NAME_MISSING',
    ]);
    await db().update(partners).set({ legalName: b.legalName }).where(eq(partners.id, b.id));

    expect(
      (await call('viewer', 'PUT', `/api/admin/products/${p.id}/status`, { status: 'published' })).statusCode,
    ).toBe(403);
    expect((await call('viewer', 'PUT', `/api/admin/products/${p.id}`, payload)).statusCode).toBe(403);
  });

  it('invalidates the catalogue: a paused product stops matching at once', async () => {
    const first = await matchForm();
    const top = first.offers[0];
    expect(top, 'the sample form is offered something').toBeDefined();
    // The catalogue is now cached (2 s); the pause must still take effect for the very next match.
    const paused = await call('operator', 'PUT', `/api/admin/products/${top!.id}/status`, {
      status: 'paused',
    });
    expect(paused.statusCode, paused.body).toBe(200);
    const second = await matchForm();
    expect(second.offers.map((o) => o.id)).not.toContain(top!.id);
    await call('operator', 'PUT', `/api/admin/products/${top!.id}/status`, { status: 'published' });
    const third = await matchForm();
    expect(third.offers.map((o) => o.id)).toContain(top!.id);
  });
});

describe(`console: rule tester (${BACKEND})`, () => {
  const storedCounts = async () => {
    const [runs] = await db().select({ n: count() }).from(matchRuns);
    const [offers] = await db().select({ n: count() }).from(matchOffers);
    const [audits] = await db().select({ n: count() }).from(auditLog);
    const counters = await db().select().from(productCounters);
    return { runs: runs!.n, offers: offers!.n, audits: audits!.n, counters };
  };

  it('explains a non-match with the engine’s reason, and stores nothing', async () => {
    const before = await storedCounts();
    // Chengdu, 60 years old: 星河信用贷 serves Guangdong, Beijing and Shanghai, ages 22–55.
    const res = await call('viewer', 'POST', '/api/admin/rule-tester', {
      profile: { ...SAMPLE, workCityCode: '510100', age: 60 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = body<RuleTesterData>(res).data;
    expect(data.age).toBe(60);
    const xinyong = data.excluded.find((x) => x.name === '星河信用贷');
    expect(xinyong).toMatchObject({ lender: '星河消费金融有限公司' });
    expect(xinyong!.reasons).toEqual(
      expect.arrayContaining([
        { code: 'CITY_NOT_COVERED', text: '所在城市未开通该产品' },
        expect.objectContaining({ code: 'AGE_OUT_OF_RANGE' }),
      ]),
    );
    // The offers are ranked, each with the rules it satisfies; the Chengdu-only lender passes its city
    // rule and is left out only by the lenders-per-person limit (as the real matching would).
    expect(data.matched.map((m) => m.rank)).toEqual(data.matched.map((_, i) => i + 1));
    expect(data.matched.length).toBeGreaterThan(0);
    const chengdu = data.excluded.find((x) => x.name === '德润同城贷');
    expect(chengdu?.reasons.map((r) => r.code)).toEqual(['LENDER_LIMIT']);
    // Not-live products are listed with their status.
    const paused = data.excluded.find((x) => x.name === '星河安居贷（暂停）');
    expect(paused?.reasons[0]).toEqual({ code: 'NOT_PUBLISHED', text: '产品已下架' });
    // Every product appears exactly once.
    const [all] = await db().select({ n: count() }).from(products);
    expect(data.matched.length + data.excluded.length).toBe(all!.n);
    expect(await storedCounts()).toEqual(before);
  });

  it('uses the live counters: a product at its daily cap is excluded as full', async () => {
    const p = await productByCode('a-xinyongdai');
    const at = '2026-03-02T04:00:00.000Z'; // noon in Shanghai, 2026-03-02
    await db()
      .insert(productCounters)
      .values({ productId: p.id, day: '2026-03-02', count: p.dailyCap! })
      .onConflictDoNothing();
    const res = await call('viewer', 'POST', '/api/admin/rule-tester', { profile: SAMPLE, at });
    const data = body<RuleTesterData>(res).data;
    expect(data.excluded.find((x) => x.productId === String(p.id))?.reasons).toContainEqual({
      code: 'DAILY_CAP_REACHED',
      text: '该产品今日名额已满',
    });
    const other = await call('viewer', 'POST', '/api/admin/rule-tester', {
      profile: SAMPLE,
      at: '2026-03-03T04:00:00.000Z',
    });
    expect(body<RuleTesterData>(other).data.matched.map((m) => m.productId)).toContain(String(p.id));
  });

  it('validates the sample and the channel', async () => {
    const bad = await call('viewer', 'POST', '/api/admin/rule-tester', { profile: { ...SAMPLE, job: 9 } });
    expect(bad.statusCode).toBe(400);
    expect(body(bad).msg).toContain('职业身份');
    const unknown = await call('viewer', 'POST', '/api/admin/rule-tester', {
      profile: SAMPLE,
      channelCode: 'no-such-channel',
    });
    expect(unknown.statusCode).toBe(400);
    expect(body(unknown).msg).toContain('渠道');
  });
});

describe(`console: signing secret rotation (${BACKEND})`, () => {
  it('answers the new secret once; deliveries sign with it at once; the old one is accepted on callbacks for 24 h only', async () => {
    const rotated = new Map<string, { id: number; old: string }>();
    for (const p of DEMO_PARTNERS) {
      const row = await partnerByCode(p.code);
      const res = await call('operator', 'POST', `/api/admin/partners/${row.id}/rotate-secret`);
      expect(res.statusCode, res.body).toBe(200);
      const data = body<PartnerSecretData>(res).data;
      expect(data.secret).not.toBe(p.signingSecret);
      expect(Date.parse(data.previousSecretValidUntil!) - Date.now()).toBeGreaterThan(23.9 * 3600_000);
      rotated.set(p.code, { id: row.id, old: secrets.get(p.code)! });
      secrets.set(p.code, data.secret);
      const [entry] = (await auditOf('partner', row.id)).filter((e) => e.action === 'rotate-secret');
      expect(entry).toBeDefined();
      expect(JSON.stringify(entry)).not.toContain(data.secret);
      expect(JSON.stringify(entry)).not.toContain(p.signingSecret!);
    }

    // A person consents to the API lenders; the worker delivers: every request verifies with the NEW secret.
    const { token, offers } = await matchForm();
    const apiOffers = offers.filter((o) => [2, 3, 6, 7, 9].includes(o.linkType));
    expect(apiOffers.length).toBeGreaterThan(0);
    const auth = await ctx.app.inject({
      method: 'PUT',
      url: '/api/user/info/auth',
      payload: { productIds: apiOffers.map((o) => o.id) },
      headers: { accesstoken: token },
    });
    expect(auth.statusCode, auth.body).toBe(200);
    const consentIds = body<{ consented: { consentId: number }[] }>(auth).data.consented.map(
      (c) => c.consentId,
    );
    const sentBefore = partner.requests.length;
    await ctx.app.services.delivery.runOnce();
    const rows = await db().select().from(leads).where(inArray(leads.consentId, consentIds));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((l) => l.status === 'delivered')).toBe(true);
    const sent = partner.requests.slice(sentBefore);
    expect(sent.length).toBe(rows.length);
    expect(sent.every((r) => r.signatureOk)).toBe(true);

    // Callbacks: the old secret still works within the grace period, the new one too.
    const lead = rows[0]!;
    const [{ code } = { code: '' }] = await db()
      .select({ code: partners.code })
      .from(partners)
      .where(eq(partners.id, lead.partnerId));
    const old = rotated.get(code)!.old;
    const payload = { leadId: lead.idempotencyKey, status: 'approved' };
    expect((await signedCallback(ctx.app, code, old, payload)).statusCode).toBe(200);
    expect((await signedCallback(ctx.app, code, secrets.get(code)!, payload)).statusCode).toBe(200);
    expect((await signedCallback(ctx.app, code, 'never-issued', payload)).statusCode).toBe(401);

    // 24 h after the rotation the old secret is refused.
    await db()
      .update(partners)
      .set({ secretRotatedAt: new Date(Date.now() - 24 * 3600_000 - 1000) })
      .where(eq(partners.code, code));
    const late = await signedCallback(ctx.app, code, old, payload);
    expect(late.statusCode).toBe(401);
    expect(body(late).code).toBe(1103);
    expect((await signedCallback(ctx.app, code, secrets.get(code)!, payload)).statusCode).toBe(200);
  });
});
