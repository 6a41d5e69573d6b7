import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { phonePage, unexpectedErrors } from './browser.ts';
import { choose, chooseCity, formItem } from './form.ts';
import { useServerAndBrowser } from './harness.ts';

/**
 * Whole journeys per flow (issue 4): landing → login (code from the dev outbox) → application form →
 * match → per-lender consent (untick all but one or two) → result page; the consents are then checked
 * through the API (GET /api/user/info/protocol2/getContent). Screenshots at 375 px go to SHOTS_DIR
 * (default /tmp/shots).
 */

const e2e = useServerAndBrowser();

const SHOTS_DIR = process.env.SHOTS_DIR ?? '/tmp/shots';

/** A full-page screenshot; `viewport` for dialogs (shown over the visible part, after their animation). */
async function snap(page: Page, name: string, viewport = false) {
  mkdirSync(SHOTS_DIR, { recursive: true });
  if (viewport) await page.waitForTimeout(500);
  await page.screenshot({ path: join(SHOTS_DIR, `${name}.png`), fullPage: !viewport });
}

let phoneSeq = Number(String(Date.now()).slice(-7));
const newPhone = () => `18${String(++phoneSeq).padStart(9, '0')}`;

async function outboxCode(phone: string): Promise<string> {
  const res = await fetch(`${e2e.server.url}/api/dev/sms-outbox?phone=${phone}`);
  const body = (await res.json()) as { data: { code: string }[] };
  return body.data[0]!.code;
}

interface Profile {
  applyLimit: string;
  job: string;
  payoffForm: string;
  socialSecurity: string;
  housingFund: string;
  insurance: string;
  houseProperty: string;
  carProperty: string;
  sesameCredit: string;
  creditInvestigation: string;
  province: string;
  city: string;
  realName: string;
  /** Valid by packages/shared/src/validators/id-card.ts; born 1990 (age rules of the demo products). */
  identity: string;
}

/** Guangzhou, employee with social security, housing fund and insurance: lenders a, g, c … match. */
const GUANGZHOU: Profile = {
  applyLimit: '1-5万',
  job: '上班族',
  payoffForm: '银行代发',
  socialSecurity: '缴纳6个月以上',
  housingFund: '缴纳6个月以上',
  insurance: '缴纳1年以上',
  houseProperty: '无房产',
  carProperty: '无车产',
  sesameCredit: '700分以上',
  creditInvestigation: '信用良好，无逾期',
  province: '广东省',
  city: '广州市',
  realName: '张三',
  identity: '110101199003074514',
};

/**
 * Shanghai without contributions and with many overdues: the H5-redirect product 南湖e贷
 * (partner-e.example.com, link type 4) is among the offers (apps/server/src/modules/products/seed.ts).
 */
const SHANGHAI_REDIRECT: Profile = {
  ...GUANGZHOU,
  socialSecurity: '无社保',
  housingFund: '无公积金',
  insurance: '无商业保险',
  creditInvestigation: '1年内逾期3次以上',
  province: '上海市',
  city: '上海市',
};

const SELECTS: [keyof Profile, string][] = [
  ['applyLimit', '借款金额'],
  ['job', '职业身份'],
  ['payoffForm', '工资发放形式'],
  ['socialSecurity', '社保'],
  ['housingFund', '公积金'],
  ['insurance', '商业保险'],
  ['houseProperty', '房产'],
  ['carProperty', '车产'],
  ['sesameCredit', '芝麻分'],
  ['creditInvestigation', '信用记录'],
];

async function fillIdentity(page: Page, p: Profile) {
  await formItem(page, '真实姓名').locator('input').fill(p.realName);
  await formItem(page, '身份证号').locator('input').fill(p.identity);
}

/** Fills the whole form (the stepped layout of formprocess3 step by step) and returns the save. */
async function fillAndSubmit(page: Page, p: Profile, opts: { stepped?: boolean; shotName: string }) {
  const selects = new Map(SELECTS);
  const pick = async (field: keyof Profile) => choose(page, selects.get(field)!, p[field]);
  if (opts.stepped) {
    await pick('applyLimit');
    await chooseCity(page, p.province, p.city);
    for (const f of ['job', 'payoffForm', 'socialSecurity', 'housingFund'] as const) await pick(f);
    await page.getByRole('button', { name: '下一步' }).click();
    for (const f of [
      'houseProperty',
      'carProperty',
      'insurance',
      'sesameCredit',
      'creditInvestigation',
    ] as const)
      await pick(f);
    await page.getByRole('button', { name: '下一步' }).click();
    // Reaching the last step submits nothing (the "下一步" button must not become the submit button).
    await formItem(page, '真实姓名').waitFor();
    await page.waitForTimeout(300);
    expect(await page.getByText('请完善申请信息').count()).toBe(0);
    await fillIdentity(page, p);
  } else {
    for (const [field] of SELECTS) await pick(field);
    await chooseCity(page, p.province, p.city);
    await fillIdentity(page, p);
  }
  await page.locator('.adm-form-footer').getByText('我已阅读并同意').click();
  await snap(page, opts.shotName);
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/user/info/save'));
  await page.locator('button[type=submit]').click();
  return saved;
}

interface Offer {
  id: string;
  productName: string;
  linkType: number;
  aprBps: number;
  lender: { legalName: string; licenceNumber: string };
}
interface Match extends Offer {
  matchId: number;
  applyStatus: number | null;
  mayAuthProductList: Offer[];
}

async function matchOf(res: Response): Promise<{ match: Match; offers: Offer[] }> {
  const body = (await res.json()) as { code: number; data: Match };
  expect(body.code).toBe(200);
  const match = body.data;
  return { match, offers: [match, ...match.mayAuthProductList] };
}

async function landAndLogin(page: Page, code: string) {
  await page.goto(`${e2e.server.url}/?adChannelCode=${code}`);
  await page.waitForLoadState('networkidle');
  await page.goto(`${e2e.server.url}/login`);
  const phone = newPhone();
  await page.getByPlaceholder('请输入手机号').fill(phone);
  await page.getByText('获取验证码').click();
  await expect.poll(() => page.getByText('验证码已发送').count(), { timeout: 10_000 }).toBeGreaterThan(0);
  await page.getByPlaceholder('请输入验证码').fill(await outboxCode(phone));
  await page.getByText('我已阅读并同意').click();
  await page.getByRole('button', { name: '登录' }).click();
  return phone;
}

const productCard = (page: Page, productName: string) =>
  page.locator('li').filter({ has: page.getByText(productName, { exact: true }) });

/**
 * The consent page: every offer with its lender's legal name, licence and APR; one lender's agreement
 * opened and read; every box ticked, then all but `keep` unticked; consent. Returns the auth answer.
 */
async function consent(page: Page, offers: Offer[], keep: string[], shotName: string, readAgreement = true) {
  const card = (o: Offer) => productCard(page, o.productName).first();
  const ticked = (o: Offer) => card(o).locator('.adm-checkbox-checked').count();
  for (const o of offers) {
    await card(o).waitFor({ timeout: 15_000 });
    await expect.poll(() => card(o).getByText(o.lender.legalName, { exact: true }).count()).toBe(1);
    expect(await card(o).innerText()).toContain(o.lender.licenceNumber);
    expect(await card(o).innerText()).toContain(`年化利率 ${(o.aprBps / 100).toFixed(2)}%`);
  }
  // Nothing is ticked in advance.
  expect(await page.locator('.adm-checkbox-checked').count()).toBe(0);
  await snap(page, `${shotName}-consent`);

  if (readAgreement) {
    const first = offers[0]!;
    await card(first).locator('.adm-checkbox').click();
    await card(first)
      .getByRole('link', { name: /授权书/ })
      .click();
    await page.waitForURL(new RegExp(`/information-agreement\\?productId=${first.id}`));
    await page.getByText(/文本校验码/).waitFor({ timeout: 10_000 });
    expect(await page.locator('article').innerText()).toContain(first.lender.legalName);
    await snap(page, `${shotName}-agreement`);
    await page.goBack();
    await card(first).waitFor();
    // The person's tick survives reading the agreement.
    await expect.poll(() => ticked(first)).toBe(1);
  }

  for (const o of offers) {
    if ((await ticked(o)) === 0) await card(o).locator('.adm-checkbox').click();
  }
  expect(await page.locator('.adm-checkbox-checked').count()).toBe(offers.length);
  for (const o of offers) {
    if (!keep.includes(o.id)) await card(o).locator('.adm-checkbox').click();
  }
  expect(await page.locator('.adm-checkbox-checked').count()).toBe(keep.length);
  const button = page.getByRole('button', { name: `同意授权并申请（${keep.length}家）` });
  const answered = page.waitForResponse((r) => r.url().endsWith('/api/user/info/auth'));
  await button.click();
  const res = await answered;
  const body = (await res.json()) as {
    code: number;
    data: {
      consented: { productId: string; mode: string; thirdpartyTargetUrl: string | null }[];
      declined: string[];
    };
  };
  expect(body.code).toBe(200);
  return {
    request: res.request().postDataJSON() as { productIds: string[]; matchId?: number },
    answer: body.data,
  };
}

/** The consents as stored: the text consented to for each kept lender, nothing for the others. */
async function expectConsents(page: Page, offers: Offer[], keep: string[]) {
  const token = await page.evaluate(() => localStorage.getItem('TOKEN'));
  expect(token).toBeTruthy();
  for (const o of offers) {
    const res = await fetch(`${e2e.server.url}/api/user/info/protocol2/getContent?productId=${o.id}`, {
      headers: { accessToken: token! },
    });
    const body = (await res.json()) as { code: number; data: { content: string; textHash: string } | null };
    if (keep.includes(o.id)) {
      expect(body.code).toBe(200);
      expect(body.data!.content).toContain(o.lender.legalName);
      expect(body.data!.textHash).toMatch(/^[0-9a-f]{64}$/);
    } else {
      expect(body.code).toBe(404);
    }
  }
}

async function expectResult(page: Page, route: RegExp, consentedNames: string[], shotName: string) {
  await page.waitForURL(route, { timeout: 15_000 });
  await page.getByText('申请已提交').first().waitFor();
  const list = page.getByLabel('已授权机构');
  for (const name of consentedNames) await list.getByText(name, { exact: true }).waitFor();
  await snap(page, `${shotName}-result`);
}

describe('journeys per flow in Chromium (form → match → per-lender consent → result)', () => {
  it('default flow (demo): form, waiting, common-authorize, one lender consented', async () => {
    const { page, errors } = await phonePage(e2e.browser);
    await landAndLogin(page, 'demo');
    await page.waitForURL(/\/fill-information(\?|$)/, { timeout: 15_000 });
    const { match, offers } = await matchOf(
      await fillAndSubmit(page, GUANGZHOU, { shotName: 'default-form' }),
    );
    expect(match.applyStatus).toBe(1);
    expect(offers.length).toBeGreaterThanOrEqual(2);
    await page.waitForURL(/\/fill-information\/common-authorize/, { timeout: 15_000 });
    // productMatchInfo holds the whole result, matchId included.
    const stored = JSON.parse(
      (await page.evaluate(() => sessionStorage.getItem('productMatchInfo'))) ?? '{}',
    );
    expect(stored.matchId).toBe(match.matchId);
    const keep = [offers[0]!.id];
    const { request, answer } = await consent(page, offers, keep, 'default');
    expect(request).toMatchObject({ productIds: keep, matchId: match.matchId, adChannelCode: 'demo' });
    expect(answer.consented.map((c) => c.productId)).toEqual(keep);
    expect(answer.declined.sort()).toEqual(
      offers
        .slice(1)
        .map((o) => o.id)
        .sort(),
    );
    await expectResult(page, /\/fill-information\/success/, [offers[0]!.productName], 'default');
    await expectConsents(page, offers, keep);
    expect(unexpectedErrors(errors)).toEqual([]);
  });

  it('fenqile (demo-fenqile): form and consent on /new-fill-information, two lenders', async () => {
    const { page, errors } = await phonePage(e2e.browser);
    await landAndLogin(page, 'demo-fenqile');
    await page.waitForURL(/\/new-fill-information/, { timeout: 15_000 });
    const { offers } = await matchOf(await fillAndSubmit(page, GUANGZHOU, { shotName: 'fenqile-form' }));
    expect(new URL(page.url()).pathname).toBe('/new-fill-information');
    const keep = offers.slice(0, 2).map((o) => o.id);
    await consent(page, offers, keep, 'fenqile', false);
    await expectResult(
      page,
      /\/fill-information\/success/,
      offers.slice(0, 2).map((o) => o.productName),
      'fenqile',
    );
    await expectConsents(page, offers, keep);
    expect(unexpectedErrors(errors)).toEqual([]);
  });

  it('formprocess3 (demo-formprocess3): loading, three-step form, authorize-page-three, success-page', async () => {
    const { page, errors } = await phonePage(e2e.browser);
    await landAndLogin(page, 'demo-formprocess3');
    await page.waitForURL(/\/fill-information-three(\?|$)/, { timeout: 20_000 });
    const { offers } = await matchOf(
      await fillAndSubmit(page, GUANGZHOU, { stepped: true, shotName: 'formprocess3-form' }),
    );
    await page.waitForURL(/\/fill-information-three\/authorize-page-three/, { timeout: 15_000 });
    const keep = [offers[1]!.id];
    await consent(page, offers, keep, 'formprocess3', false);
    await expectResult(
      page,
      /\/fill-information-three\/success-page/,
      [offers[1]!.productName],
      'formprocess3',
    );
    await expectConsents(page, offers, keep);
    expect(unexpectedErrors(errors)).toEqual([]);
  });

  it('formprocess4 (demo-formprocess4): an H5-redirect lender continues on its own page in /inline-page', async () => {
    const { page, errors, context } = await phonePage(e2e.browser);
    // The demo lenders' hosts do not exist: answer for them (the CSP frames https pages).
    await context.route('https://partner-*.example.com/**', (route) =>
      route.fulfill({
        contentType: 'text/html; charset=utf-8',
        body: '<!doctype html><meta charset="utf-8"><h1>南湖e贷申请页</h1>',
      }),
    );
    await landAndLogin(page, 'demo-formprocess4');
    await page.waitForURL(/\/fill-information-four/, { timeout: 15_000 });
    const { offers } = await matchOf(
      await fillAndSubmit(page, SHANGHAI_REDIRECT, { shotName: 'formprocess4-form' }),
    );
    const redirect = offers.find((o) => o.linkType === 4);
    expect(redirect?.productName).toBe('南湖e贷');
    const other = offers.find((o) => o !== redirect)!;
    const keep = [redirect!.id, other.id];
    const { answer } = await consent(page, offers, keep, 'formprocess4', false);
    const h5 = answer.consented.find((c) => c.productId === redirect!.id);
    expect(h5).toMatchObject({
      mode: 'h5Redirect',
      thirdpartyTargetUrl: 'https://partner-e.example.com/form',
    });
    await expectResult(
      page,
      /\/fill-information\/success/,
      [redirect!.productName, other.productName],
      'formprocess4',
    );
    await expectConsents(page, offers, keep);

    // "去申请" opens the lender's page: its host is not in the channel's allowedHosts, but the URL is the
    // one our server answered for this consent.
    const go = page
      .getByLabel('已授权机构')
      .locator('li', { hasText: '南湖e贷' })
      .getByRole('button', { name: '去申请' });
    await go.click();
    await page.waitForURL(/\/inline-page\?url=https%3A%2F%2Fpartner-e\.example\.com%2Fform/);
    await page.getByText('您正在访问南湖e贷（partner-e.example.com）').waitFor();
    await page.frameLocator('iframe').getByText('南湖e贷申请页').waitFor({ timeout: 10_000 });
    await snap(page, 'formprocess4-inline');
    // Another page of the same host, not named by the server, stays refused.
    await page.goto(
      `${e2e.server.url}/inline-page?url=${encodeURIComponent('https://partner-e.example.com/other')}`,
    );
    await page.getByText('已拦截').waitFor();
    expect(unexpectedErrors(errors)).toEqual([]);
  });

  it('Haier (demo-haier): pre-selected answers shown for confirmation, name/ID/city typed, autoForm on submit', async () => {
    const { page, errors } = await phonePage(e2e.browser);
    await landAndLogin(page, 'demo-haier');
    await page.waitForURL(/\/fill-information\/waiting-result/, { timeout: 15_000 });
    await snap(page, 'haier-waiting');
    await page.waitForURL(/\/fill-information(\?|$)/, { timeout: 15_000 });
    await page.getByText(/我们已为您预选了各选项/).waitFor();
    // Every option question pre-selected, never 10-20万; name, ID and city left to the person.
    expect(await page.locator('.adm-selector-item-active').count()).toBe(SELECTS.length);
    const limit = await formItem(page, '借款金额').locator('.adm-selector-item-active').innerText();
    expect(limit).not.toBe('10-20万');
    expect(await formItem(page, '真实姓名').locator('input').inputValue()).toBe('');
    expect(await formItem(page, '身份证号').locator('input').inputValue()).toBe('');
    await formItem(page, '工作城市').getByText('请选择您工作所在城市').waitFor();
    await snap(page, 'haier-prefilled');
    // Nothing was sent before the person submits.
    const saves: unknown[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/user/info/save')) saves.push(r.postDataJSON());
    });
    const res = await fillAndSubmit(page, GUANGZHOU, { shotName: 'haier-form' });
    expect(saves).toHaveLength(1);
    expect(res.request().postDataJSON()).toMatchObject({
      autoForm: true,
      adChannelCode: 'demo-haier',
      realName: '张三',
      identity: GUANGZHOU.identity,
      workCityCode: '440100',
      applyLimit: 2,
    });
    const { offers } = await matchOf(res);
    await page.waitForURL(/\/fill-information\/common-authorize/, { timeout: 15_000 });
    const keep = [offers[0]!.id];
    await consent(page, offers, keep, 'haier', false);
    await expectResult(page, /\/fill-information\/success/, [offers[0]!.productName], 'haier');
    await expectConsents(page, offers, keep);
    expect(unexpectedErrors(errors)).toEqual([]);
  });

  it('APPLY_STATUS_MODAL: sold out → alert then the result page; already registered → confirm then the lender page', async () => {
    const { page, errors, context } = await phonePage(e2e.browser);
    await context.route('https://partner-*.example.com/**', (route) =>
      route.fulfill({
        contentType: 'text/html; charset=utf-8',
        body: '<!doctype html><meta charset="utf-8"><h1>星河极速贷</h1>',
      }),
    );
    // The demo seed produces neither answer (no cap is reached; no duplicate-checked lender has a page of
    // its own), so the server's real answer to the save is rewritten in the e2e.browser into the shapes its
    // toMatchResult gives for them (apps/server/src/modules/matching/service.ts).
    let rewrite: (matchId: number) => Record<string, unknown> = () => ({});
    await page.route('**/api/user/info/save', async (route) => {
      const real = (await (await route.fetch()).json()) as { data: { matchId: number } };
      await route.fulfill({ json: { code: 200, msg: 'success', data: rewrite(real.data.matchId) } });
    });
    const empty = { id: null, productName: null, mayAuthProductList: [] };

    await landAndLogin(page, 'demo');
    await page.waitForURL(/\/fill-information(\?|$)/, { timeout: 15_000 });
    rewrite = (matchId) => ({ ...empty, matchId, applyStatus: 0, thirdpartyTargetUrl: null });
    await fillAndSubmit(page, GUANGZHOU, { shotName: 'modal-form' });
    await page
      .locator('.adm-dialog')
      .getByText(/产品已售罄/)
      .first()
      .waitFor();
    await snap(page, 'modal-sold-out', true);
    await page.locator('.adm-dialog-button', { hasText: '我知道了' }).click();
    await page.waitForURL(/\/fill-information\/success\?isNotFormReq=1&soldOut=1/, { timeout: 10_000 });
    await page.getByText('今日名额已满').waitFor();
    expect(await page.locator('.adm-dialog').count()).toBe(0);

    const target = 'https://partner-a.example.com/apply?from=lm';
    rewrite = (matchId) => ({ ...empty, matchId, applyStatus: 2, thirdpartyTargetUrl: target });
    await page.goto(`${e2e.server.url}/fill-information`);
    await fillAndSubmit(page, GUANGZHOU, { shotName: 'modal-form-again' });
    await page
      .locator('.adm-dialog')
      .getByText(/您已在该机构注册/)
      .waitFor();
    await snap(page, 'modal-registered', true);
    await page.locator('.adm-dialog-button', { hasText: '立即前往' }).click();
    await page.waitForURL(/\/inline-page\?url=https%3A%2F%2Fpartner-a\.example\.com%2Fapply%3Ffrom%3Dlm/, {
      timeout: 10_000,
    });
    await page.frameLocator('iframe').getByText('星河极速贷').waitFor({ timeout: 10_000 });
    expect(unexpectedErrors(errors)).toEqual([]);
  });

  it('second authorisation (demo-skin8): a second match (directMatchType 3) offers more lenders', async () => {
    const { page, errors } = await phonePage(e2e.browser);
    const matches: unknown[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/user/info/direct/match')) matches.push(r.postDataJSON());
    });
    await landAndLogin(page, 'demo-skin8');
    await page.waitForURL(/\/fill-information(\?|$)/, { timeout: 15_000 });
    const { offers } = await matchOf(await fillAndSubmit(page, GUANGZHOU, { shotName: 'second-form' }));
    await page.waitForURL(/\/fill-information\/common-authorize/, { timeout: 15_000 });
    const secondRes = page.waitForResponse((r) => r.url().endsWith('/api/user/info/direct/match'));
    await consent(page, offers, [offers[0]!.id], 'second-first', false);
    const second = await matchOf(await secondRes);
    expect(matches).toEqual([{ adChannelCode: 'demo-skin8', directMatchType: 3 }]);
    await page.waitForURL(/\/seconed-match-authorize/, { timeout: 15_000 });
    // The URL changes at once; the first authorise page (its kept lender ticked, its other lenders offered
    // again here) stays on screen until the second one's code has loaded (a transition). Wait for the second.
    await page.getByText(/^您的授权已提交。/).waitFor({ timeout: 15_000 });
    const stored = JSON.parse(
      (await page.evaluate(() => sessionStorage.getItem('seconedProductMatchInfo'))) ?? '{}',
    );
    expect(stored.matchId).toBe(second.match.matchId);
    const keep = [second.offers[0]!.id];
    const { request } = await consent(page, second.offers, keep, 'second', false);
    expect(request.matchId).toBe(second.match.matchId);
    await expectResult(
      page,
      /\/fill-information\/success/,
      [offers[0]!.productName, second.offers[0]!.productName],
      'second',
    );
    await expectConsents(page, [offers[0]!, ...second.offers], [offers[0]!.id, ...keep]);
    expect(unexpectedErrors(errors)).toEqual([]);
  });
});
