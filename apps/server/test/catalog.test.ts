import { inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { products } from '../src/db/schema.ts';
import {
  db,
  expectedCatalogue,
  get,
  type Item,
  idOf,
  ids,
  type Page,
  useCatalogApp,
} from './catalog-setup.ts';
import { BACKEND, body } from './helpers.ts';

useCatalogApp();

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
