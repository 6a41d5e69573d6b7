import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  agreementTexts,
  consents,
  matchOffers,
  matchRuns,
  partners,
  productEvents,
  products,
} from '../src/db/schema.ts';
import { shanghaiDate } from '../src/lib/time.ts';
import {
  AGENT_SERVICE_HOURS,
  agentFor,
  outsideHoursMessage,
  PRODUCT_UNAVAILABLE_MSG,
  TARGET_URL_MISSING_MSG,
  TARGET_URL_NOT_ALLOWED_MSG,
} from '../src/modules/catalog/rules.ts';
import { DEMO_CHANNELS } from '../src/modules/channels/seed.ts';
import { BACKEND, body, createTestApp, loginAs, newIp, type TestContext } from './helpers.ts';

interface Item {
  id: string;
  productName: string;
  companyType: string;
  institutionType: number;
  thirdpartyType: number;
  yqlWholeProcessBumpVO: { partnerProductName: string } | null;
  linkType: number;
  amountMinFen: number;
  amountMaxFen: number;
  termMinMonths: number;
  termMaxMonths: number;
  aprBps: number | null;
  lenderLegalName: string;
  thirdpartyTargetUrl: string | null;
}
interface Page {
  list: Item[];
  total: number;
  pageNum: number;
  pageSize: number;
}
type TodayItem = Item & { appliedAt: string; sources: string[] };

let ctx: TestContext;
const db = () => ctx.app.database.db;

const get = (url: string, token?: string, ip = '10.9.9.9') =>
  ctx.app.inject({
    method: 'GET',
    url,
    headers: token ? { accesstoken: token } : {},
    remoteAddress: ip,
  });
const post = (url: string, payload: unknown, token?: string) =>
  ctx.app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    headers: token ? { accesstoken: token } : {},
  });

/** Ids of the products added by this file, by code. */
const ids: Record<string, number> = {};
const idOf = async (code: string) => {
  const [row] = await db().select({ id: products.id }).from(products).where(eq(products.code, code));
  return row!.id;
};

/** Every listed product (published, active lender) in catalogue order, computed independently. */
async function expectedCatalogue() {
  const rows = await db()
    .select({ product: products, partnerStatus: partners.status })
    .from(products)
    .innerJoin(partners, eq(products.partnerId, partners.id));
  return rows
    .filter((r) => r.product.status === 'published' && r.partnerStatus === 'active')
    .map((r) => r.product)
    .sort((a, b) => b.priority - a.priority || b.priceFen - a.priceFen || a.id - b.id);
}

const product = (code: string, partnerId: number, over: Partial<typeof products.$inferInsert>) => ({
  code,
  partnerId,
  productName: code,
  companyType: 'KAInstitution' as const,
  institutionType: 1,
  linkType: 2,
  amountMinFen: 100_000,
  amountMaxFen: 1_000_000,
  termMinMonths: 3,
  termMaxMonths: 12,
  aprBps: 1500,
  priority: 50,
  priceFen: 3000,
  status: 'published' as const,
  sharedFields: ['realName'],
  ...over,
});

/** Shanghai HH:MM `hours` from now. */
const hhmmIn = (hours: number) => new Date(Date.now() + (8 + hours) * 3600_000).toISOString().slice(11, 16);
/** A window that does not contain the present moment (it starts in two hours). */
const CLOSED_NOW = { from: hhmmIn(2), to: hhmmIn(3) };

beforeAll(async () => {
  ctx = await createTestApp();
  const partner = (code: string, allowedHosts: string[], status: 'active' | 'suspended') => ({
    code,
    legalName: `${code} 小额贷款有限公司`,
    licenceNumber: `备案 ${code}`,
    contactName: '测试',
    contactPhoneEnc: 'v1.test',
    contactPhoneMasked: '138****0000',
    allowedHosts,
    status,
  });
  const [hosts, suspended] = await db()
    .insert(partners)
    .values([
      partner('zz-hosts', ['good.example.com'], 'active'),
      partner('zz-suspended', ['suspended.example.com'], 'suspended'),
    ])
    .returning({ id: partners.id });
  const added = await db()
    .insert(products)
    .values([
      // An H5 product whose page is not on its lender's allowed hosts.
      product('zz-bad-host', hosts!.id, {
        linkType: 1,
        targetUrl: 'https://evil.example.net/apply',
        priority: 58,
      }),
      // An H5 form product on an allowed host (host compared case-insensitively).
      product('zz-good-h5', hosts!.id, {
        linkType: 4,
        targetUrl: 'https://GOOD.example.com/form?from=lm',
        companyType: 'RegionInstitution',
        institutionType: 4,
      }),
      // Outside its active hours right now.
      product('zz-closed', hosts!.id, {
        linkType: 1,
        targetUrl: 'https://good.example.com/closed',
        activeHours: CLOSED_NOW,
        priority: 5,
      }),
      // An H5 product without a page at all.
      product('zz-no-url', hosts!.id, { linkType: 1, targetUrl: null, priority: 10 }),
      // Published, but its lender is suspended: never shown, never applied to.
      product('zz-suspended-h5', suspended!.id, {
        linkType: 1,
        targetUrl: 'https://suspended.example.com/apply',
        priority: 999,
      }),
    ])
    .returning({ id: products.id, code: products.code });
  for (const p of added) ids[p.code] = p.id;
  for (const code of [
    'a-jisudai',
    'a-xinyongdai',
    'a-paused',
    'c-draft-high-apr',
    'c-quanliucheng',
    'e-h5form',
  ])
    ids[code] = await idOf(code);
});
afterAll(async () => ctx?.close());

describe(`product catalogue (${BACKEND})`, () => {
  it('productList pages through every published product of active lenders, in catalogue order', async () => {
    const expected = await expectedCatalogue();
    expect(expected.length).toBeGreaterThan(15);

    const first = await get('/api/product/productList');
    expect(first.statusCode).toBe(200);
    const page1 = body<Page>(first);
    expect(page1.code).toBe(200);
    expect(page1.data).toMatchObject({ total: expected.length, pageNum: 1, pageSize: 10 });
    expect(page1.data.list.map((p) => p.id)).toEqual(expected.slice(0, 10).map((p) => String(p.id)));

    const seen: string[] = [];
    for (let pageNum = 1; pageNum <= Math.ceil(expected.length / 7); pageNum++) {
      const page = body<Page>(await get(`/api/product/productList?pageNum=${pageNum}&pageSize=7`)).data;
      expect(page.list.length).toBeLessThanOrEqual(7);
      seen.push(...page.list.map((p) => p.id));
    }
    expect(seen).toEqual(expected.map((p) => String(p.id)));

    // The seed has ties on priority (broken by price) and on both (broken by id): all three keys count.
    const key = (p: (typeof expected)[number]) => `${p.priority}/${p.priceFen}`;
    expect(new Set(expected.map(key)).size).toBeLessThan(expected.length);
    expect(new Set(expected.map((p) => p.priority)).size).toBeLessThan(new Set(expected.map(key)).size);
    const statuses = new Set(
      (
        await db()
          .select({ status: products.status })
          .from(products)
          .where(inArray(products.id, seen.map(Number)))
      ).map((r) => r.status),
    );
    expect(statuses).toEqual(new Set(['published']));
    expect(seen).not.toContain(String(ids['a-paused']));
    expect(seen).not.toContain(String(ids['c-draft-high-apr']));
    expect(seen).not.toContain(String(ids['zz-suspended-h5']));

    const beyond = body<Page>(await get('/api/product/productList?pageNum=99&pageSize=50')).data;
    expect(beyond).toEqual({ list: [], total: expected.length, pageNum: 99, pageSize: 50 });
  });

  it('lists each product with its fields, the lender and (H5 only, host checked) the target URL', async () => {
    const list = body<Page>(await get('/api/product/productList?pageSize=50')).data.list;
    const byId = (code: string) => list.find((p) => p.id === String(ids[code]))!;
    expect(byId('a-xinyongdai')).toEqual({
      id: String(ids['a-xinyongdai']),
      productName: '星河信用贷',
      companyType: 'KAInstitution',
      institutionType: 1,
      thirdpartyType: 0,
      yqlWholeProcessBumpVO: null,
      linkType: 2,
      amountMinFen: 100_000,
      amountMaxFen: 20_000_000,
      termMinMonths: 3,
      termMaxMonths: 36,
      aprBps: 1800,
      lenderLegalName: '星河消费金融有限公司',
      thirdpartyTargetUrl: null,
    });
    expect(byId('c-quanliucheng')).toMatchObject({
      thirdpartyType: 7,
      yqlWholeProcessBumpVO: { partnerProductName: '前海融通·随心借' },
      lenderLegalName: '前海融通消费金融有限公司',
    });
    expect(byId('a-jisudai').thirdpartyTargetUrl).toBe('https://partner-a.example.com/apply?from=lm');
    expect(byId('zz-good-h5').thirdpartyTargetUrl).toBe('https://GOOD.example.com/form?from=lm');
    // Listed (published), but the page it names is not on the lender's hosts: no URL is handed out.
    expect(byId('zz-bad-host').thirdpartyTargetUrl).toBeNull();
    for (const p of list) {
      expect(p.id).toMatch(/^\d+$/);
      if (p.linkType !== 1 && p.linkType !== 4) expect(p.thirdpartyTargetUrl).toBeNull();
      expect(p.yqlWholeProcessBumpVO === null).toBe(p.thirdpartyType !== 7);
      expect(p).not.toHaveProperty('priceFen');
      expect(p).not.toHaveProperty('rules');
    }
  });

  it('productList filters by amount (yuan), term, company type, institution type and link type', async () => {
    const expected = await expectedCatalogue();
    const query = async (qs: string) =>
      body<Page>(await get(`/api/product/productList?pageSize=50&${qs}`)).data.list.map((p) => p.id);
    const ids_ = (rows: typeof expected) => rows.map((p) => String(p.id));

    expect(await query('amount=60000')).toEqual(
      ids_(expected.filter((p) => p.amountMinFen <= 6_000_000 && p.amountMaxFen >= 6_000_000)),
    );
    // The bounds are inclusive: 星河极速贷 lends 5 000 to 50 000 yuan.
    expect(await query('amount=5000')).toContain(String(ids['a-jisudai']));
    expect(await query('amount=50000')).toContain(String(ids['a-jisudai']));
    expect(await query('amount=50001')).not.toContain(String(ids['a-jisudai']));
    // Only 和信房抵贷 lends for 48 months.
    const long = await query('termMonths=48');
    expect(long).toEqual([String(await idOf('d-fangdai'))]);
    expect(await query('companyType=RegionInstitution&amount=100000')).toEqual(
      ids_(
        expected.filter(
          (p) =>
            p.companyType === 'RegionInstitution' &&
            p.amountMinFen <= 10_000_000 &&
            p.amountMaxFen >= 10_000_000,
        ),
      ),
    );
    expect(await query('institutionType=2')).toEqual(ids_(expected.filter((p) => p.institutionType === 2)));
    expect(await query('linkType=7')).toEqual(ids_(expected.filter((p) => p.linkType === 7)));
    expect((await query('linkType=7')).length).toBe(2);

    const filtered = body<Page>(await get('/api/product/productList?amount=60000&pageSize=2')).data;
    expect(filtered.total).toBe(
      expected.filter((p) => p.amountMinFen <= 6_000_000 && p.amountMaxFen >= 6_000_000).length,
    );
    expect(filtered.list).toHaveLength(2);
    // A filter nothing matches.
    expect(body<Page>(await get('/api/product/productList?amount=9000000')).data).toMatchObject({
      list: [],
      total: 0,
    });
  });

  it('validates the productList query in Chinese, naming the field; empty values are absent', async () => {
    for (const [qs, text] of [
      ['pageSize=0', '每页条数 pageSize'],
      ['pageSize=51', '每页条数 pageSize'],
      ['pageNum=abc', '页码 pageNum'],
      ['pageNum=1.5', '页码 pageNum'],
      ['amount=-1', '借款金额 amount'],
      ['termMonths=0', '借款期限 termMonths'],
      ['companyType=Bank', '机构类型 companyType'],
      ['linkType=10', '对接方式 linkType'],
    ] as const) {
      const res = await get(`/api/product/productList?${qs}`);
      expect(res.statusCode, qs).toBe(400);
      expect(body(res).code).toBe(400);
      expect(body(res).msg, qs).toContain(text);
    }
    const empty = await get('/api/product/productList?pageNum=&pageSize=&amount=&companyType=');
    expect(empty.statusCode).toBe(200);
    expect(body<Page>(empty).data).toMatchObject({ pageNum: 1, pageSize: 10 });
    expect(body<Page>(empty).data.total).toBe((await expectedCatalogue()).length);
  });

  it('topRecommend answers the head of the catalogue', async () => {
    const expected = (await expectedCatalogue()).map((p) => String(p.id));
    const top = body<Item[]>(await get('/api/product/topRecommend'));
    expect(top.data.map((p) => p.id)).toEqual(expected.slice(0, 3));
    expect(body<Item[]>(await get('/api/product/topRecommend?size=5')).data.map((p) => p.id)).toEqual(
      expected.slice(0, 5),
    );
    // The suspended lender's priority-999 product is not among them.
    expect(top.data.map((p) => p.id)).not.toContain(String(ids['zz-suspended-h5']));
    expect((await get('/api/product/topRecommend?size=21')).statusCode).toBe(400);
  });

  it('columnRecommendProductList groups by company type, each column in catalogue order', async () => {
    const expected = await expectedCatalogue();
    const res = await get('/api/product/columnRecommendProductList?size=4');
    expect(res.statusCode).toBe(200);
    const columns = body<{ columnCode: string; columnName: string; list: Item[] }[]>(res).data;
    expect(columns.map((c) => [c.columnCode, c.columnName])).toEqual([
      ['KAInstitution', '大机构精选'],
      ['RegionInstitution', '地方机构推荐'],
    ]);
    for (const column of columns) {
      expect(column.list.map((p) => p.id)).toEqual(
        expected
          .filter((p) => p.companyType === column.columnCode)
          .slice(0, 4)
          .map((p) => String(p.id)),
      );
    }
    const all = body<{ list: Item[] }[]>(await get('/api/product/columnRecommendProductList')).data;
    expect(all[0]!.list).toHaveLength(6);
  });

  it('randomRecommend answers only listed products, varies, and honours excludeProductId', async () => {
    const listed = new Set((await expectedCatalogue()).map((p) => String(p.id)));
    const seen = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const res = await get('/api/product/randomRecommend');
      expect(res.statusCode).toBe(200);
      const item = body<Item>(res).data;
      expect(listed.has(item.id), item.productName).toBe(true);
      seen.add(item.id);
    }
    // 40 draws from 18+ products: all equal has probability below 1e-48.
    expect(seen.size).toBeGreaterThan(1);
    const excluded = [...seen][0]!;
    for (let i = 0; i < 20; i++) {
      const item = body<Item>(await get(`/api/product/randomRecommend?excludeProductId=${excluded}`)).data;
      expect(item.id).not.toBe(excluded);
      expect(listed.has(item.id)).toBe(true);
    }
  });

  it('detail answers a listed product; unknown, unpublished and suspended-lender products are 404', async () => {
    const res = await get(`/api/product/detail?productId=${ids['a-jisudai']}`);
    expect(res.statusCode).toBe(200);
    expect(body(res).data).toMatchObject({
      id: String(ids['a-jisudai']),
      productName: '星河极速贷',
      linkType: 1,
      thirdpartyTargetUrl: 'https://partner-a.example.com/apply?from=lm',
      lenderLegalName: '星河消费金融有限公司',
      lenderLicenceNumber: '金融许可证 S0001H211000001',
      sharedFields: ['realName', 'mobile', 'identity', 'workCityCode', 'applyLimit'],
      activeHours: null,
    });
    for (const id of [ids['a-paused'], ids['c-draft-high-apr'], ids['zz-suspended-h5'], 2_000_000_000]) {
      const missing = await get(`/api/product/detail?productId=${id}`);
      expect(missing.statusCode, String(id)).toBe(404);
      expect(body(missing)).toMatchObject({ code: 404, msg: '产品不存在或已下架' });
    }
    const noId = await get('/api/product/detail');
    expect(noId.statusCode).toBe(400);
    expect(body(noId).msg).toContain('请提供产品编号 productId');
    expect(body(await get('/api/product/detail?productId=')).msg).toContain('请提供产品编号 productId');
    expect(body(await get('/api/product/detail?productId=12abc')).msg).toContain(
      '产品编号 productId 必须是整数',
    );
    expect((await get('/api/product/detail?productId=0')).statusCode).toBe(400);
  });

  it("h5product/union lists published H5 products (link types 1, 4) on the lender's allowed hosts", async () => {
    const expected = (await expectedCatalogue()).filter((p) => p.linkType === 1 || p.linkType === 4);
    const union = body<Item[]>(await get('/api/product/h5product/union')).data;
    const unionIds = union.map((p) => p.id);
    expect(unionIds).toEqual(
      expected.filter((p) => p.code !== 'zz-bad-host' && p.code !== 'zz-no-url').map((p) => String(p.id)),
    );
    expect(unionIds).toContain(String(ids['a-jisudai']));
    expect(unionIds).toContain(String(ids['e-h5form']));
    expect(unionIds).toContain(String(ids['zz-good-h5']));
    expect(unionIds).not.toContain(String(ids['zz-bad-host']));
    expect(unionIds).not.toContain(String(ids['zz-no-url']));
    expect(unionIds).not.toContain(String(ids['zz-suspended-h5']));
    for (const p of union) {
      expect([1, 4]).toContain(p.linkType);
      expect(p.thirdpartyTargetUrl).toMatch(/^https:\/\//);
    }
  });
});

describe(`apply, today's applies and the jump flag (${BACKEND})`, () => {
  const events = (userId: number, kind?: 'apply' | 'exposure' | 'jump_success') =>
    db()
      .select()
      .from(productEvents)
      .where(
        kind
          ? and(eq(productEvents.userId, userId), eq(productEvents.kind, kind))
          : eq(productEvents.userId, userId),
      );

  it('need login, checked before the body', async () => {
    for (const token of [undefined, 'forged-token']) {
      for (const [url, payload] of [
        ['/api/product/apply', { productId: ids['a-jisudai'] }],
        ['/api/product/apply', { productId: 'not-a-number' }],
        ['/api/product/apiH5JumpUrlSuccessFlag', { productId: ids['a-jisudai'] }],
      ] as const) {
        const res = await post(url, payload, token);
        expect(res.statusCode, url).toBe(401);
        expect(body(res).code).toBe(401);
      }
      const today = await get('/api/product/listTodayApplyProduct', token);
      expect(today.statusCode).toBe(401);
    }
  });

  it('apply answers the partner page and records one apply per product and placement a day', async () => {
    const { token, uid } = await loginAs(ctx.app);
    const res = await post(
      '/api/product/apply',
      { productId: String(ids['a-jisudai']), entranceType: 6, appH5: 4 },
      token,
    );
    expect(res.statusCode).toBe(200);
    expect(body(res)).toEqual({
      code: 200,
      msg: 'success',
      data: { thirdpartyTargetUrl: 'https://partner-a.example.com/apply?from=lm', linkType: 1 },
    });
    const [event] = await events(uid, 'apply');
    expect(event).toMatchObject({
      userId: uid,
      productId: ids['a-jisudai'],
      kind: 'apply',
      entranceType: 6,
      appH5: 4,
      day: shanghaiDate(),
    });

    // Again from the same placement: answered, not stored twice.
    expect(
      (await post('/api/product/apply', { productId: ids['a-jisudai'], entranceType: 6 }, token)).statusCode,
    ).toBe(200);
    expect(await events(uid, 'apply')).toHaveLength(1);
    // From another placement: a second row. Empty values are absent (placement 0, appH5 4).
    expect(
      (
        await post(
          '/api/product/apply',
          { productId: ids['a-jisudai'], entranceType: '', appH5: null },
          token,
        )
      ).statusCode,
    ).toBe(200);
    const rows = await events(uid, 'apply');
    expect(rows.map((r) => [r.entranceType, r.appH5]).sort()).toEqual([
      [0, 4],
      [6, 4],
    ]);

    // A product without a partner page (API link type): null, the person goes through the form.
    const api = await post('/api/product/apply', { productId: ids['a-xinyongdai'], entranceType: 5 }, token);
    expect(body(api).data).toEqual({ thirdpartyTargetUrl: null, linkType: 2 });
    // Concurrent applies from one placement are one row.
    const burst = await Promise.all(
      Array.from({ length: 5 }, () =>
        post('/api/product/apply', { productId: ids['e-h5form'], entranceType: 4 }, token),
      ),
    );
    for (const r of burst) expect(r.statusCode).toBe(200);
    expect((await events(uid, 'apply')).filter((r) => r.productId === ids['e-h5form'])).toHaveLength(1);
  });

  it('apply refuses unpublished products, suspended lenders, closed hours and pages off the allowed hosts', async () => {
    const { token, uid } = await loginAs(ctx.app);
    const refused = async (productId: number, status: number, msg: string) => {
      const res = await post('/api/product/apply', { productId, entranceType: 6, appH5: 4 }, token);
      expect(res.statusCode, String(productId)).toBe(status);
      expect(body(res)).toMatchObject({ code: status, msg, data: { productId: String(productId) } });
    };
    await refused(ids['a-paused']!, 404, PRODUCT_UNAVAILABLE_MSG);
    await refused(ids['c-draft-high-apr']!, 404, PRODUCT_UNAVAILABLE_MSG);
    await refused(ids['zz-suspended-h5']!, 404, PRODUCT_UNAVAILABLE_MSG);
    await refused(ids['zz-bad-host']!, 403, TARGET_URL_NOT_ALLOWED_MSG);
    await refused(ids['zz-no-url']!, 403, TARGET_URL_MISSING_MSG);
    await refused(ids['zz-closed']!, 403, outsideHoursMessage(CLOSED_NOW));
    await refused(2_000_000_000, 404, '产品不存在');
    expect(TARGET_URL_NOT_ALLOWED_MSG).toMatch(/\p{Script=Han}/u);
    expect(await events(uid)).toEqual([]);

    // The allowed host, compared case-insensitively.
    const good = await post('/api/product/apply', { productId: ids['zz-good-h5'] }, token);
    expect(body(good).data).toEqual({
      thirdpartyTargetUrl: 'https://GOOD.example.com/form?from=lm',
      linkType: 4,
    });
  });

  it('apply validates the body in Chinese, naming the field', async () => {
    const { token } = await loginAs(ctx.app);
    for (const [payload, text] of [
      [{}, '请提供产品编号 productId'],
      [{ productId: 'abc' }, '产品编号 productId 必须是整数'],
      [{ productId: 1.5 }, '产品编号 productId 必须是整数'],
      [{ productId: ids['a-jisudai'], entranceType: 8 }, '广告位 entranceType 应在0到7之间'],
      [{ productId: ids['a-jisudai'], entranceType: -1 }, '广告位 entranceType'],
      [{ productId: ids['a-jisudai'], appH5: 'h5' }, '来源端 appH5 必须是整数'],
    ] as const) {
      const res = await post('/api/product/apply', payload, token);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(body(res).msg).toContain(text);
    }
    const notObject = await ctx.app.inject({
      method: 'POST',
      url: '/api/product/apply',
      payload: '[1]',
      headers: { accesstoken: token, 'content-type': 'application/json' },
    });
    expect(notObject.statusCode).toBe(400);
    expect(body(notObject).msg).toContain('请求数据必须是对象');
  });

  it("listTodayApplyProduct lists today's applies and consents (Shanghai day), most recent first", async () => {
    const { token, uid } = await loginAs(ctx.app);
    const other = await loginAs(ctx.app);
    const list = async () => body<TodayItem[]>(await get('/api/product/listTodayApplyProduct', token)).data;
    expect(await list()).toEqual([]);

    await post('/api/product/apply', { productId: ids['a-jisudai'], entranceType: 6 }, token);
    await post('/api/product/apply', { productId: ids['a-jisudai'], entranceType: 4 }, token);
    await post('/api/product/apply', { productId: ids['e-h5form'], entranceType: 6 }, other.token);

    // Yesterday's apply and consent do not count; nor do another person's.
    const yesterday = shanghaiDate(new Date(Date.now() - 86_400_000));
    await db().insert(productEvents).values({
      userId: uid,
      productId: ids['c-quanliucheng']!,
      kind: 'apply',
      entranceType: 6,
      appH5: 4,
      day: yesterday,
    });
    const consent = async (code: string, createdAt: Date) => {
      const [p] = await db().select().from(products).where(eq(products.code, code));
      const [run] = await db()
        .insert(matchRuns)
        .values({ userId: uid, matchType: 1, source: 'form', profileEnc: 'v1.test' })
        .returning({ id: matchRuns.id });
      const [offer] = await db()
        .insert(matchOffers)
        .values({
          runId: run!.id,
          userId: uid,
          productId: p!.id,
          partnerId: p!.partnerId,
          rank: 1,
          capDay: shanghaiDate(createdAt),
          status: 'consented',
        })
        .returning({ id: matchOffers.id });
      const hash = `test-${code}-${createdAt.getTime()}`;
      await db().insert(agreementTexts).values({
        hash,
        agreementCode: 'information-agreement',
        version: '1',
        title: '授权书',
        content: '…',
      });
      await db()
        .insert(consents)
        .values({
          userId: uid,
          offerId: offer!.id,
          productId: p!.id,
          partnerId: p!.partnerId,
          agreementCode: 'information-agreement',
          agreementVersion: '1',
          textHash: hash,
          fields: ['realName'],
          createdAt,
        });
    };
    await consent('b-shebao', new Date(Date.now() - 86_400_000 - 60_000));
    await consent('a-xinyongdai', new Date(Date.now() + 1000));
    await consent('a-jisudai', new Date(Date.now() - 500));

    const today = await list();
    expect(today.map((p) => p.productName)).toEqual(['星河信用贷', '星河极速贷']);
    expect(today[0]).toMatchObject({
      id: String(ids['a-xinyongdai']),
      sources: ['consent'],
      lenderLegalName: '星河消费金融有限公司',
      thirdpartyTargetUrl: null,
    });
    expect(today[1]!.sources).toEqual(['apply', 'consent']);
    for (const p of today) {
      expect(shanghaiDate(new Date(p.appliedAt))).toBe(shanghaiDate());
    }
    expect(
      body<TodayItem[]>(await get('/api/product/listTodayApplyProduct', other.token)).data.map((p) => p.id),
    ).toEqual([String(ids['e-h5form'])]);
  });

  it('apiH5JumpUrlSuccessFlag records a jump once per product a day', async () => {
    const { token, uid } = await loginAs(ctx.app);
    const flag = (payload: unknown) => post('/api/product/apiH5JumpUrlSuccessFlag', payload, token);
    const first = await flag({ productId: ids['a-jisudai'], entranceType: 6, appH5: 4 });
    expect(first.statusCode).toBe(200);
    expect(body(first).data).toEqual({ recorded: true });
    expect(body(await flag({ productId: ids['a-jisudai'], entranceType: 5 })).data).toEqual({
      recorded: false,
    });
    const rows = await events(uid, 'jump_success');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      productId: ids['a-jisudai'],
      entranceType: 6,
      appH5: 4,
      day: shanghaiDate(),
    });

    // Yesterday's jump does not block today's.
    await db()
      .insert(productEvents)
      .values({
        userId: uid,
        productId: ids['e-h5form']!,
        kind: 'jump_success',
        entranceType: 6,
        appH5: 4,
        day: shanghaiDate(new Date(Date.now() - 86_400_000)),
      });
    expect(body(await flag({ productId: ids['e-h5form'] })).data).toEqual({ recorded: true });

    const unknown = await flag({ productId: 2_000_000_000 });
    expect(unknown.statusCode).toBe(404);
    expect(body(unknown).msg).toBe('产品不存在');
    expect((await flag({})).statusCode).toBe(400);
  });
});

describe(`reportProductExposure (${BACKEND})`, () => {
  const exposures = (productId: number) =>
    db()
      .select()
      .from(productEvents)
      .where(and(eq(productEvents.productId, productId), eq(productEvents.kind, 'exposure')));

  it('records a logged-in exposure once per product, placement and day', async () => {
    const { token, uid } = await loginAs(ctx.app);
    const id = ids['zz-good-h5']!;
    const report = (qs: string) => get(`/api/reportProductExposure?productId=${id}&${qs}`, token, newIp());
    const first = await report('entranceType=6&appH5=4');
    expect(first.statusCode).toBe(200);
    expect(body(first)).toEqual({ code: 200, msg: 'success', data: { recorded: true } });
    expect(body(await report('entranceType=6&appH5=4')).data).toEqual({ recorded: false });
    expect(body(await report('entranceType=5')).data).toEqual({ recorded: true });
    const mine = (await exposures(id)).filter((r) => r.userId === uid);
    expect(mine.map((r) => r.entranceType).sort()).toEqual([5, 6]);
    for (const r of mine) expect(r.day).toBe(shanghaiDate());

    // Concurrent reports of one exposure store one row.
    const burst = await Promise.all(Array.from({ length: 6 }, () => report('entranceType=7')));
    expect(burst.map((r) => body<{ recorded: boolean }>(r).data.recorded).filter(Boolean)).toHaveLength(1);

    // An exposure stored yesterday does not block today's.
    await db()
      .insert(productEvents)
      .values({
        userId: uid,
        productId: ids['a-jisudai']!,
        kind: 'exposure',
        entranceType: 4,
        appH5: 4,
        day: shanghaiDate(new Date(Date.now() - 86_400_000)),
      });
    const today = await get(`/api/reportProductExposure?productId=${ids['a-jisudai']}&entranceType=4`, token);
    expect(body(today).data).toEqual({ recorded: true });
  });

  it('works anonymously (every report stored, no user) and with a bad token', async () => {
    const id = ids['a-xinyongdai']!;
    const before = (await exposures(id)).length;
    for (const token of [undefined, undefined, 'forged-token']) {
      const res = await get(
        `/api/reportProductExposure?productId=${id}&entranceType=6&appH5=4`,
        token,
        newIp(),
      );
      expect(res.statusCode).toBe(200);
      expect(body(res).data).toEqual({ recorded: true });
    }
    const rows = (await exposures(id)).sort((a, b) => a.id - b.id);
    expect(rows.length - before).toBe(3);
    expect(rows.slice(-3).every((r) => r.userId === null && r.entranceType === 6)).toBe(true);
  });

  it('stores nothing for an unlisted product, 404 for an unknown one, 400 for a bad query', async () => {
    const paused = await get(`/api/reportProductExposure?productId=${ids['a-paused']}&entranceType=6`);
    expect(body(paused).data).toEqual({ recorded: false });
    expect(await exposures(ids['a-paused']!)).toEqual([]);
    expect((await get('/api/reportProductExposure?productId=2000000000')).statusCode).toBe(404);
    for (const [qs, text] of [
      ['', '请提供产品编号 productId'],
      [`productId=${ids['a-jisudai']}&entranceType=9`, '广告位 entranceType 应在0到7之间'],
      [`productId=${ids['a-jisudai']}&appH5=x`, '来源端 appH5 必须是整数'],
    ] as const) {
      const res = await get(`/api/reportProductExposure?${qs}`);
      expect(res.statusCode, qs).toBe(400);
      expect(body(res).msg).toContain(text);
    }
    // Empty placement and source are absent: 0 (unknown) and 4 (H5).
    const { token, uid } = await loginAs(ctx.app);
    await get(`/api/reportProductExposure?productId=${ids['e-h5form']}&entranceType=&appH5=`, token);
    const [row] = (await exposures(ids['e-h5form']!)).filter((r) => r.userId === uid);
    expect(row).toMatchObject({ entranceType: 0, appH5: 4 });
  });

  it('caps reports per IP per hour', async () => {
    const ip = newIp();
    const { EXPOSURES_PER_IP_PER_HOUR } = await import('../src/modules/catalog/service.ts');
    // Use up the allowance directly in the limiter, then one more report is refused.
    for (let i = 0; i < EXPOSURES_PER_IP_PER_HOUR; i++)
      await ctx.app.services.limiter.consume(`exposure:ip:${ip}`, EXPOSURES_PER_IP_PER_HOUR, {
        ms: 3600_000,
      });
    const res = await get(`/api/reportProductExposure?productId=${ids['a-jisudai']}`, undefined, ip);
    expect(res.statusCode).toBe(429);
    expect(body(res).code).toBe(429);
    expect(body(res).msg).toMatch(/^曝光上报过于频繁/);
  });
});

describe(`agent (${BACKEND})`, () => {
  const footer = (code: string) => DEMO_CHANNELS.find((c) => c.adChannelCode === code)!.footer![0]!;

  it("answers the channel's customer-service contact: query, else the person's channel, else default", async () => {
    const demo = body<Record<string, unknown>>(await get('/api/agent/get?adChannelCode=demo')).data;
    expect(demo).toEqual({
      adChannelCode: 'demo',
      agentName: '在线客服',
      operatorName: footer('demo').companyName,
      operatorFilingNumber: footer('demo').filingNumber,
      serviceHours: AGENT_SERVICE_HOURS,
      online: agentFor({ adChannelCode: 'demo', footer: [] }, new Date()).online,
    });

    const { token } = await loginAs(ctx.app, undefined, { adChannelCode: 'demo-fenqile' });
    const mine = body<Record<string, unknown>>(await get('/api/agent/get', token)).data;
    expect(mine).toMatchObject({
      adChannelCode: 'demo-fenqile',
      operatorName: footer('demo-fenqile').companyName,
    });
    // The query wins over the person's channel.
    expect(
      body<Record<string, unknown>>(await get('/api/agent/get?adChannelCode=demo', token)).data,
    ).toMatchObject({
      adChannelCode: 'demo',
    });

    for (const url of [
      '/api/agent/get',
      '/api/agent/get?adChannelCode=',
      '/api/agent/get?adChannelCode=no-such',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(body(res).data).toMatchObject({ adChannelCode: '', operatorName: null, agentName: '在线客服' });
    }
    const bad = await get('/api/agent/get?adChannelCode=%3Cscript%3E');
    expect(bad.statusCode).toBe(400);
    expect(body(bad).msg).toContain('渠道码');
  });

  it('documents every products call in the OpenAPI document', async () => {
    const doc = (await get('/api/docs/json')).json() as { paths: Record<string, Record<string, unknown>> };
    for (const [path, method] of [
      ['/api/product/topRecommend', 'get'],
      ['/api/product/productList', 'get'],
      ['/api/product/detail', 'get'],
      ['/api/product/randomRecommend', 'get'],
      ['/api/product/listTodayApplyProduct', 'get'],
      ['/api/product/columnRecommendProductList', 'get'],
      ['/api/product/h5product/union', 'get'],
      ['/api/product/apply', 'post'],
      ['/api/product/apiH5JumpUrlSuccessFlag', 'post'],
      ['/api/reportProductExposure', 'get'],
      ['/api/agent/get', 'get'],
    ] as const) {
      expect(doc.paths[path]?.[method], path).toBeDefined();
    }
  });
});
