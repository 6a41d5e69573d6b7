import { createHash } from 'node:crypto';
import { AGREEMENT_PAGES } from '@lm/shared/channel';
import { INFO_AGREEMENT, type ProtocolData } from '@lm/shared/schemas/matching';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { agreementDocuments, articles, products } from '../src/db/schema.ts';
import { AGREEMENT_SEEDS } from '../src/modules/content/agreements.ts';
import { ARTICLE_SEEDS } from '../src/modules/content/articles.ts';
import { BACKEND, body, createTestApp, secondInstance, type TestContext } from './helpers.ts';

const OPERATOR = {
  OPERATOR_NAME: '杭州测试数科有限公司',
  OPERATOR_SHORT_NAME: '测试借呗',
  OPERATOR_ADDRESS: '浙江省杭州市西湖区文三路100号8层',
  OPERATOR_LICENCE: '浙ICP备2099000009号',
  OPERATOR_SERVICE_PHONE: '400-123-4567',
  OPERATOR_EMAIL: 'dpo@ceshi.example.cn',
  DELETION_DEADLINE_WORKING_DAYS: '12',
};
/** The operator as agreements and `GET /api/content/operator` answer it, from the settings above. */
const OPERATOR_ANSWER = {
  name: OPERATOR.OPERATOR_NAME,
  shortName: OPERATOR.OPERATOR_SHORT_NAME,
  address: OPERATOR.OPERATOR_ADDRESS,
  licence: OPERATOR.OPERATOR_LICENCE,
  servicePhone: OPERATOR.OPERATOR_SERVICE_PHONE,
  email: OPERATOR.OPERATOR_EMAIL,
};

interface Agreement {
  code: string;
  version: string;
  title: string;
  effectiveDate: string;
  effectiveAt: string;
  intro: string;
  sections: { heading: string; paragraphs: string[] }[];
  operator: {
    name: string;
    shortName: string;
    address: string;
    licence: string;
    servicePhone: string;
    email: string;
  };
}
interface NewsItem {
  id: number;
  slug: string;
  title: string;
  summary: string;
  category: string;
  publishedAt: string;
}
interface NewsList {
  total: number;
  page: number;
  pageSize: number;
  list: NewsItem[];
}
type NewsDetail = NewsItem & { body: string[]; views: number; related: NewsItem[] };

let ctx: TestContext;
const db = () => ctx.app.database.db;
const get = (url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url, headers });

const allText = (a: Pick<Agreement, 'title' | 'effectiveDate' | 'intro' | 'sections'>) =>
  [a.title, a.effectiveDate, a.intro, ...a.sections.flatMap((s) => [s.heading, ...s.paragraphs])].join('\n');

beforeAll(async () => {
  ctx = await createTestApp({ env: OPERATOR });
});
afterAll(async () => ctx?.close());
afterEach(() => {
  vi.useRealTimers();
});

/** The server's clock (Date only: timers, the database and the network run as usual). */
const clockAt = (at: string) => vi.useFakeTimers({ toFake: ['Date'], now: new Date(at) });

/** The privacy texts that name the ad platforms (issue 47.7) take effect at the start of this Shanghai day. */
const AD_REPORTING = { version: '2026-12-06', date: '2026年12月6日' };
const FIRST = { version: '2026-11-22', date: '2026年11月22日' };
const AD_REPORTING_CODES = ['privacy-agreement', 'jkr-privacy-agreement'];

describe(`agreements (${BACKEND})`, () => {
  it.each(
    AGREEMENT_PAGES.map((p) => [p.key, p.title] as const),
  )('GET /api/agreement/%s serves the text in force with the configured operator', async (code, title) => {
    clockAt('2026-12-06T12:00:00+08:00');
    const expected = AD_REPORTING_CODES.includes(code) ? AD_REPORTING : FIRST;
    const res = await get(`/api/agreement/${code}`);
    expect(res.statusCode).toBe(200);
    const a = body<Agreement>(res).data;
    expect(a.code).toBe(code);
    expect(a.title).toBe(title);
    expect(a.version).toBe(expected.version);
    expect(a.effectiveDate).toBe(expected.date);
    expect(a.operator).toEqual(OPERATOR_ANSWER);
    const text = allText(a);
    for (const value of [
      OPERATOR.OPERATOR_NAME,
      OPERATOR.OPERATOR_ADDRESS,
      OPERATOR.OPERATOR_LICENCE,
      OPERATOR.OPERATOR_SERVICE_PHONE,
      OPERATOR.OPERATOR_EMAIL,
    ]) {
      expect(text).toContain(value);
    }
    expect(text).not.toMatch(/\{\{|\}\}/);
    // Cacheable, with the version and the operator named as its ETag (ADR 057); a matching If-None-Match
    // answers 304 without a body.
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    const etag = res.headers.etag as string;
    expect(etag).toMatch(new RegExp(`^"${expected.version}\\.[0-9a-f]{12}"$`));
    const again = await get(`/api/agreement/${code}`, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect((await get(`/api/agreement/${code}`, { 'if-none-match': '"2025-01-01"' })).statusCode).toBe(200);
    // The version alone (an ETag of before operators) names no operator: the text is sent again.
    expect(
      (await get(`/api/agreement/${code}`, { 'if-none-match': `"${expected.version}"` })).statusCode,
    ).toBe(200);
  });

  it('the deletion deadline in the texts comes from configuration', async () => {
    const a = body<Agreement>(await get('/api/agreement/privacy-agreement')).data;
    expect(allText(a)).toContain('12个工作日内删除');
    expect(allText(a)).not.toContain('15个工作日内删除');
  });

  it.each(
    AGREEMENT_PAGES.map((p) => [p.key] as const),
  )('GET /api/user/info/protocol/%s answers the same text as one plain text with its hash', async (code) => {
    const res = await get(`/api/user/info/protocol/${code}`);
    expect(res.statusCode).toBe(200);
    const p = body<ProtocolData>(res).data;
    const a = body<Agreement>(await get(`/api/agreement/${code}`)).data;
    expect(p).toMatchObject({ id: code, title: a.title, version: a.version, consentedAt: null });
    expect(p.textHash).toBe(createHash('sha256').update(p.content, 'utf8').digest('hex'));
    expect(p.content).toContain(`《${a.title}》`);
    expect(p.content).toContain(a.intro);
    for (const s of a.sections) {
      expect(p.content).toContain(s.heading);
      for (const para of s.paragraphs) expect(p.content).toContain(para);
    }
    expect(p.content).toContain(OPERATOR.OPERATOR_NAME);
  });

  it('with a product, information-agreement is still the text rendered for that lender', async () => {
    const [product] = await db().select({ id: products.id }).from(products).limit(1);
    expect(product).toBeDefined();
    const res = await get(`/api/user/info/protocol/${INFO_AGREEMENT.id}?productId=${product!.id}`);
    expect(res.statusCode).toBe(200);
    const p = body<ProtocolData>(res).data;
    expect(p.id).toBe(INFO_AGREEMENT.id);
    expect(p.title).toBe(INFO_AGREEMENT.title);
    expect(p.content).toContain('接收方');
    expect(p.content).toContain('综合年化利率');
    expect((await get(`/api/user/info/protocol/${INFO_AGREEMENT.id}?productId=999999`)).statusCode).toBe(404);
  });

  it('unknown codes answer the 404 envelope on every agreement call', async () => {
    for (const url of [
      '/api/agreement/no-such-agreement',
      '/api/agreement/no-such-agreement/versions',
      '/api/user/info/protocol/no-such-agreement',
      '/api/agreement/REGISTER-AGREEMENT',
      '/api/agreement/register-agreement?version=1999-01-01',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(body(res)).toMatchObject({ code: 404, data: null });
      expect(body(res).msg).toMatch(/协议/);
    }
  });

  it('serves the newest version in force; older ones stay readable; future ones wait', async () => {
    const code = 'jkr-general-agreement';
    const base = body<Agreement>(await get(`/api/agreement/${code}`)).data;
    const bodyOf = (intro: string) => ({
      effectiveDate: '新版本日期',
      intro,
      sections: [
        { heading: '一、测试', paragraphs: ['由{{operatorName}}运营，客服{{operatorServicePhone}}。'] },
      ],
    });
    const now = Date.now();
    await db()
      .insert(agreementDocuments)
      .values([
        {
          code,
          version: 'test-newer',
          title: '借款人通用协议',
          body: bodyOf('较新的版本'),
          effectiveAt: new Date(now - 60_000),
        },
        {
          code,
          version: 'test-future',
          title: '借款人通用协议',
          body: bodyOf('尚未生效的版本'),
          effectiveAt: new Date(now + 86_400_000),
        },
      ]);

    const current = body<Agreement>(await get(`/api/agreement/${code}`)).data;
    expect(current.version).toBe('test-newer');
    expect(current.intro).toBe('较新的版本');
    expect(current.sections[0]!.paragraphs[0]).toBe(
      `由${OPERATOR.OPERATOR_NAME}运营，客服${OPERATOR.OPERATOR_SERVICE_PHONE}。`,
    );
    const protocol = body<ProtocolData>(await get(`/api/user/info/protocol/${code}`)).data;
    expect(protocol.version).toBe('test-newer');

    const old = await get(`/api/agreement/${code}?version=${base.version}`);
    expect(old.statusCode).toBe(200);
    expect(body<Agreement>(old).data.intro).toBe(base.intro);
    expect((await get(`/api/agreement/${code}?version=test-future`)).statusCode).toBe(404);

    const versions = body<{
      code: string;
      current: string;
      list: { version: string; state: string; effectiveAt: string }[];
    }>(await get(`/api/agreement/${code}/versions`)).data;
    expect(versions.current).toBe('test-newer');
    expect(versions.list.map((v) => [v.version, v.state])).toEqual([
      ['test-future', 'scheduled'],
      ['test-newer', 'in_force'],
      [base.version, 'superseded'],
    ]);
    // Other agreements are not affected.
    expect(body<Agreement>(await get('/api/agreement/register-agreement')).data.version).toBe('2026-11-22');
  });

  it('a stored text with an unknown placeholder is never served half-filled', async () => {
    const code = 'yq-shopkeeper-agreement';
    await db()
      .insert(agreementDocuments)
      .values({
        code,
        version: 'broken',
        title: '店主服务协议',
        body: { effectiveDate: 'x', intro: '{{companySeal}}', sections: [] },
        effectiveAt: new Date(Date.now() - 1000),
      });
    const res = await get(`/api/agreement/${code}`);
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('companySeal');
    await db()
      .delete(agreementDocuments)
      .where(and(eq(agreementDocuments.code, code), eq(agreementDocuments.version, 'broken')));
    expect((await get(`/api/agreement/${code}`)).statusCode).toBe(200);
  });

  it('starting another instance does not duplicate the built-in versions', async () => {
    const second = await secondInstance(ctx);
    await second.close();
    const [row] = await db()
      .select({ n: count() })
      .from(agreementDocuments)
      .where(eq(agreementDocuments.version, '2026-11-22'));
    expect(row!.n).toBe(AGREEMENT_PAGES.length);
    const [later] = await db()
      .select({ n: count() })
      .from(agreementDocuments)
      .where(eq(agreementDocuments.version, AD_REPORTING.version));
    expect(later!.n).toBe(AD_REPORTING_CODES.length);
  });

  it('GET /api/content/operator answers the configured operator', async () => {
    const res = await get('/api/content/operator');
    expect(res.statusCode).toBe(200);
    expect(body(res).data).toEqual(OPERATOR_ANSWER);
  });
});

/** The ad platforms and the companies that run them, as the privacy texts name them (issue 47.7). */
const AD_PLATFORM_COMPANIES = [
  '北京巨量引擎网络技术有限公司',
  '北京快手广告有限公司',
  '北京百度网讯科技有限公司',
  '深圳市腾讯计算机系统有限公司',
];
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe(`the privacy texts that name the ad platforms (issue 47.7, ${BACKEND})`, () => {
  /** Everything a reader (or a consent) gets of `code` at `at`: the page, its ETag, the plain text, the versions. */
  async function servedAt(code: string, at: string) {
    clockAt(at);
    const res = await get(`/api/agreement/${code}`);
    expect(res.statusCode).toBe(200);
    const protocol = body<ProtocolData>(await get(`/api/user/info/protocol/${code}`)).data;
    const versions = body<{ current: string; list: { version: string; state: string }[] }>(
      await get(`/api/agreement/${code}/versions`),
    ).data;
    return { page: body<Agreement>(res).data, etag: res.headers.etag as string, protocol, versions };
  }

  it('until 6 December (Shanghai) the privacy policy of 2026-11-22 is served; from its first instant the new one', async () => {
    const code = 'privacy-agreement';
    const before = await servedAt(code, '2026-12-05T23:59:59.999+08:00');
    expect(before.page.version).toBe(FIRST.version);
    expect(allText(before.page)).toContain('不使用第三方广告跟踪');
    expect(allText(before.page)).not.toContain('广告效果回传');
    expect(before.protocol).toMatchObject({ version: FIRST.version, consentedAt: null });
    expect(before.protocol.textHash).toBe(sha256(before.protocol.content));
    expect(before.versions.current).toBe(FIRST.version);
    expect(before.versions.list.map((v) => [v.version, v.state])).toEqual([
      [AD_REPORTING.version, 'scheduled'],
      [FIRST.version, 'in_force'],
    ]);
    // A version not yet in force is not served, even by name.
    expect((await get(`/api/agreement/${code}?version=${AD_REPORTING.version}`)).statusCode).toBe(404);

    const after = await servedAt(code, '2026-12-06T00:00:00+08:00');
    expect(after.page.version).toBe(AD_REPORTING.version);
    expect(after.page.effectiveDate).toBe(AD_REPORTING.date);
    expect(after.page.effectiveAt).toBe('2026-12-05T16:00:00.000Z');
    const section = after.page.sections.find((s) => s.heading === '六、广告效果回传');
    expect(section).toBeDefined();
    const text = section!.paragraphs.join('\n');
    for (const company of AD_PLATFORM_COMPANIES) expect(text).toContain(company);
    expect(text).toContain('点击编号');
    expect(text).toContain('不会向广告平台发送您的手机号码、姓名、身份证号码');
    // Filled like every text: the configured operator, its contacts, the deletion deadline.
    const all = allText(after.page);
    expect(all).toContain(`个人信息处理者：${OPERATOR.OPERATOR_NAME}`);
    expect(all).toContain(OPERATOR.OPERATOR_EMAIL);
    expect(all).toContain('12个工作日内删除');
    expect(all).not.toMatch(/\{\{|\}\}/);
    expect(all).not.toContain('不使用第三方广告跟踪');

    // A browser holding the old text revalidates and gets the new one (the ETag names the version).
    expect(after.etag).toMatch(/^"2026-12-06\.[0-9a-f]{12}"$/);
    const revalidated = await get(`/api/agreement/${code}`, { 'if-none-match': before.etag });
    expect(revalidated.statusCode).toBe(200);
    expect(body<Agreement>(revalidated).data.version).toBe(AD_REPORTING.version);

    // The plain text (what a consent records, with its SHA-256) is the new version's.
    expect(after.protocol.version).toBe(AD_REPORTING.version);
    expect(after.protocol.content).toContain(`版本：${AD_REPORTING.version}　生效日期：${AD_REPORTING.date}`);
    expect(after.protocol.content).toContain('六、广告效果回传');
    for (const company of AD_PLATFORM_COMPANIES) expect(after.protocol.content).toContain(company);
    expect(after.protocol.textHash).toBe(sha256(after.protocol.content));
    expect(after.protocol.textHash).not.toBe(before.protocol.textHash);

    // The old version stays readable, unchanged, for those who agreed to it.
    const old = await get(`/api/agreement/${code}?version=${FIRST.version}`);
    expect(old.statusCode).toBe(200);
    expect(body<Agreement>(old).data).toMatchObject({ version: FIRST.version, intro: before.page.intro });
    expect(body<Agreement>(old).data.sections).toEqual(before.page.sections);
    expect(after.versions.current).toBe(AD_REPORTING.version);
    expect(after.versions.list.map((v) => [v.version, v.state])).toEqual([
      [AD_REPORTING.version, 'in_force'],
      [FIRST.version, 'superseded'],
    ]);
  });

  it('the stored rows are the texts of agreements.ts, and a restart leaves them as they are', async () => {
    const rows = await db()
      .select()
      .from(agreementDocuments)
      .where(eq(agreementDocuments.version, AD_REPORTING.version));
    const seeds = AGREEMENT_SEEDS.filter((s) => s.version === AD_REPORTING.version);
    expect(rows.map((r) => r.code).sort()).toEqual(seeds.map((s) => s.code).sort());
    for (const s of seeds) {
      const row = rows.find((r) => r.code === s.code)!;
      expect(row.body).toEqual(s.body);
      expect(row.effectiveAt).toEqual(s.effectiveAt);
    }
  });

  it('the borrower’s privacy agreement names the platforms from the same day; other texts keep their version', async () => {
    const before = await servedAt('jkr-privacy-agreement', '2026-12-05T23:59:00+08:00');
    expect(before.page.version).toBe(FIRST.version);
    const after = await servedAt('jkr-privacy-agreement', '2026-12-06T00:01:00+08:00');
    expect(after.page.version).toBe(AD_REPORTING.version);
    const section = after.page.sections.find((s) => s.heading === '四、广告效果回传');
    for (const company of AD_PLATFORM_COMPANIES) expect(section!.paragraphs.join('')).toContain(company);
    expect(after.protocol.textHash).not.toBe(before.protocol.textHash);
    for (const code of ['audit-agreement-privacy', 'register-agreement', 'information-agreement']) {
      const later = await servedAt(code, '2027-06-01T12:00:00+08:00');
      expect(later.page.version, code).toBe(FIRST.version);
      expect(allText(later.page), code).not.toContain('广告效果回传');
    }
  });
});

describe(`daily news (${BACKEND})`, () => {
  it('lists the published articles newest first, page by page', async () => {
    const first = body<NewsList>(await get('/api/news?page=1&pageSize=5')).data;
    expect(first.total).toBe(ARTICLE_SEEDS.length);
    expect(first).toMatchObject({ page: 1, pageSize: 5 });
    expect(first.list).toHaveLength(5);
    const second = body<NewsList>(await get('/api/news?page=2&pageSize=5')).data;
    const last = body<NewsList>(await get('/api/news?page=3&pageSize=5')).data;
    const all = [...first.list, ...second.list, ...last.list];
    expect(all).toHaveLength(ARTICLE_SEEDS.length);
    expect(new Set(all.map((a) => a.id)).size).toBe(all.length);
    const times = all.map((a) => Date.parse(a.publishedAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(all[0]!.slug).toBe('what-is-a-credit-report');
    expect(Object.keys(all[0]!).sort()).toEqual([
      'category',
      'id',
      'publishedAt',
      'slug',
      'summary',
      'title',
    ]);
    expect(body<NewsList>(await get('/api/news?page=9')).data.list).toEqual([]);
    // Defaults.
    expect(body<NewsList>(await get('/api/news')).data).toMatchObject({ page: 1, pageSize: 10 });
  });

  it('filters by category', async () => {
    const res = body<NewsList>(await get(`/api/news?category=${encodeURIComponent('防骗提醒')}`)).data;
    const expected = ARTICLE_SEEDS.filter((a) => a.category === '防骗提醒');
    expect(res.total).toBe(expected.length);
    expect(res.list.map((a) => a.slug).sort()).toEqual(expected.map((a) => a.slug).sort());
    expect(body<NewsList>(await get('/api/news?category=')).data.total).toBe(ARTICLE_SEEDS.length);
    expect(body<NewsList>(await get('/api/news?category=nope')).data).toMatchObject({ total: 0, list: [] });
  });

  it('rejects bad paging with the 400 envelope', async () => {
    for (const q of ['page=0', 'pageSize=0', 'pageSize=51', 'page=abc', 'pageSize=1.5']) {
      const res = await get(`/api/news?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(body(res).code).toBe(400);
    }
  });

  it('GET /api/news/:id answers the article with related ones and counts views', async () => {
    const list = body<NewsList>(await get('/api/news?pageSize=50')).data.list;
    const target = list.find((a) => a.slug === 'spot-loan-fraud')!;
    const res = await get(`/api/news/${target.id}`);
    expect(res.statusCode).toBe(200);
    const a = body<NewsDetail>(res).data;
    expect(a).toMatchObject({ id: target.id, slug: target.slug, title: target.title, category: '防骗提醒' });
    expect(a.body.length).toBeGreaterThanOrEqual(3);
    expect(a.related.length).toBe(3);
    expect(a.related.map((r) => r.id)).not.toContain(target.id);
    // The other fraud article comes first.
    expect(a.related[0]!.category).toBe('防骗提醒');
    const again = body<NewsDetail>(await get(`/api/news/${target.slug}`)).data;
    expect(again.id).toBe(target.id);
    expect(again.views).toBe(a.views + 1);
  });

  it('drafts, scheduled and missing articles are hidden', async () => {
    const [draft] = await db()
      .insert(articles)
      .values({
        slug: 'draft-article',
        title: '草稿',
        summary: '还没发布',
        category: '信用知识',
        body: ['一', '二', '三'],
        status: 'draft',
        publishedAt: new Date(Date.now() - 60_000),
      })
      .returning();
    const [scheduled] = await db()
      .insert(articles)
      .values({
        slug: 'scheduled-article',
        title: '明天发布',
        summary: '定时发布',
        category: '信用知识',
        body: ['一', '二', '三'],
        publishedAt: new Date(Date.now() + 86_400_000),
      })
      .returning();
    const list = body<NewsList>(await get('/api/news?pageSize=50')).data;
    expect(list.total).toBe(ARTICLE_SEEDS.length);
    expect(list.list.map((a) => a.id)).not.toContain(draft!.id);
    expect(list.list.map((a) => a.id)).not.toContain(scheduled!.id);
    for (const url of [
      `/api/news/${draft!.id}`,
      '/api/news/draft-article',
      `/api/news/${scheduled!.id}`,
      '/api/news/999999',
      '/api/news/no-such-article',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(body(res)).toMatchObject({ code: 404, msg: '资讯不存在或已下线', data: null });
    }
    const [row] = await db()
      .select({ views: articles.views })
      .from(articles)
      .where(eq(articles.id, draft!.id));
    expect(row!.views).toBe(0);
    // Related lists never show a draft either.
    const detail = body<NewsDetail>(await get('/api/news/what-is-a-credit-report')).data;
    expect(detail.related.map((r) => r.id)).not.toContain(draft!.id);
  });
});
