/**
 * Issue 16.8: the match travels as its opaque key, never as the result. A returning applicant logs in
 * (spec §4 step 6: re-match → rematch-waiting → common-authorize): every address of the journey names
 * the match by `matchKey` only (no rqResult, no lender's name or contact); the authorise page loads
 * the match by the key when the tab has not kept it; another person's browser with the same link
 * gets nothing. Old `rqResult` links keep working (e2e/rematch-link.e2e.test.ts).
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { phonePage, shot, unexpectedErrors } from './browser.ts';
import { useServerAndBrowser } from './harness.ts';
import { apiCall, DEMO_FORM, loginPerson, type Person, signIn } from './person.ts';

interface Offer {
  id: string;
  productName: string;
  lender: { legalName: string; contactPhone: string };
}
interface Match extends Offer {
  matchId: number;
  matchKey: string;
  mayAuthProductList: Offer[];
}

const e2e = useServerAndBrowser();
let owner: Person;
let saved: Match;
/** When the owner's login code was sent (one login code per phone per minute). */
let codeSentAt = 0;

beforeAll(async () => {
  owner = await loginPerson(e2e.server.url, '137');
  codeSentAt = Date.now();
  saved = await apiCall<Match>(e2e.server.url, '/api/user/info/save', {
    token: owner.token,
    body: DEMO_FORM,
  });
  expect(saved.matchKey).toBeTruthy();
});

const offersOf = (m: Match): Offer[] => [m, ...m.mayAuthProductList];
const authorizeLink = (matchKey: string) =>
  `${e2e.server.url}/fill-information/common-authorize?options=${encodeURIComponent(
    JSON.stringify({ adChannelCode: 'demo', matchKey }),
  )}`;

async function outboxCode(phone: string): Promise<string> {
  const [sms] = await apiCall<{ code: string }[]>(e2e.server.url, `/api/dev/sms-outbox?phone=${phone}`);
  return sms!.code;
}

async function loginInBrowser(page: Page, phone: string) {
  await page.goto(`${e2e.server.url}/?adChannelCode=demo`);
  await page.waitForLoadState('networkidle');
  await page.goto(`${e2e.server.url}/login`);
  await page.getByPlaceholder('请输入手机号').fill(phone);
  await page.getByText('获取验证码').click();
  await expect.poll(() => page.getByText('验证码已发送').count(), { timeout: 10_000 }).toBeGreaterThan(0);
  await page.getByPlaceholder('请输入验证码').fill(await outboxCode(phone));
  await page.getByText('我已阅读并同意').click();
  await page.getByRole('button', { name: '登录' }).click();
}

describe('the match travels as its key', () => {
  it('another person opening the owner’s link sees no lender of it', async () => {
    const other = await loginPerson(e2e.server.url, '136');
    const { page, context, errors } = await phonePage(e2e.browser);
    await signIn(context, other);
    const answer = page.waitForResponse((r) => r.url().includes('/api/user/info/match/'));
    await page.goto(authorizeLink(saved.matchKey));
    const res = await answer;
    expect(res.status()).toBe(404);
    expect(((await res.json()) as { msg: string }).msg).toBe('匹配结果不存在');
    await expect.poll(() => page.getByText('暂无可授权的产品').isVisible(), { timeout: 10_000 }).toBe(true);
    const text = await page.evaluate(() => document.body.innerText);
    for (const o of offersOf(saved)) {
      expect(text).not.toContain(o.productName);
      expect(text).not.toContain(o.lender.legalName);
    }
    await shot(page, 'match-key-other-person');
    // The refusal is the expected answer here, not an error of the page.
    const refusal = (e: string) => e.startsWith('404 /api/user/info/match/') || /status of 404/.test(e);
    expect(errors.filter(refusal).length).toBeGreaterThan(0);
    expect(unexpectedErrors(errors).filter((e) => !refusal(e))).toEqual([]);
    await context.close();
  }, 60_000);

  it('a returning applicant’s re-match goes by key; the authorise page loads it after the tab forgot it', async () => {
    const { page, context, errors } = await phonePage(e2e.browser);
    const addresses: string[] = [];
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame()) addresses.push(f.url());
    });
    // One login code per phone per minute: the API login above sent one.
    const wait = codeSentAt + 61_000 - Date.now();
    if (wait > 0) await page.waitForTimeout(wait);
    const rematch = page.waitForResponse((r) => r.url().endsWith('/api/user/info/direct/match'), {
      timeout: 60_000,
    });
    await loginInBrowser(page, owner.phone);
    const again = (await (await rematch).json()) as { data: Match };
    const match = again.data;
    expect(match.matchKey).toBeTruthy();
    await page.waitForURL(/\/fill-information\/rematch-waiting/, { timeout: 15_000 });
    await page.waitForURL(/\/fill-information\/common-authorize/, { timeout: 20_000 });
    for (const o of offersOf(match)) {
      await expect.poll(() => page.getByText(o.productName, { exact: true }).isVisible()).toBe(true);
    }
    await shot(page, 'match-key-authorize');

    // Every address of the journey: the key, never the result or a lender's details.
    const journey = addresses.filter((u) => /rematch-waiting|common-authorize/.test(u));
    expect(journey.length).toBeGreaterThanOrEqual(2);
    for (const url of journey) {
      const decoded = decodeURIComponent(url);
      expect(decoded).not.toContain('rqResult');
      expect(decoded).toContain(match.matchKey);
      for (const o of offersOf(match)) {
        expect(decoded).not.toContain(o.lender.legalName);
        expect(decoded).not.toContain(o.lender.contactPhone);
        expect(decoded).not.toContain(o.productName);
      }
      expect(url.length).toBeLessThan(600);
    }

    // The tab forgets the match (a new tab, the link shared with oneself): loaded by its key.
    await page.evaluate(() => sessionStorage.clear());
    const loaded = page.waitForResponse((r) => r.url().includes('/api/user/info/match/'));
    await page.reload();
    expect((await loaded).status()).toBe(200);
    const first = offersOf(match)[0]!;
    await expect.poll(() => page.getByText(first.productName, { exact: true }).isVisible()).toBe(true);
    for (const o of offersOf(match)) {
      expect(await page.getByText(o.lender.legalName, { exact: true }).isVisible()).toBe(true);
    }
    await shot(page, 'match-key-authorize-reloaded');

    // The consent names that run.
    const card = page.locator('li').filter({ has: page.getByText(first.productName, { exact: true }) });
    await card.locator('.adm-checkbox').click();
    const answered = page.waitForRequest((r) => r.url().endsWith('/api/user/info/auth'));
    await page.getByRole('button', { name: '同意授权并申请（1家）' }).click();
    expect((await answered).postDataJSON()).toMatchObject({ productIds: [first.id], matchId: match.matchId });
    await page.waitForURL(/\/fill-information\/success/, { timeout: 15_000 });
    expect(unexpectedErrors(errors)).toEqual([]);
    await context.close();
  }, 180_000);
});
