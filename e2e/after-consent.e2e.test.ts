/**
 * Issue 44.4, 44.5: what follows a consent, and going back from it (ADR 059).
 * - 44.5 (`demo`): on the result page, back (the browser's, or the page's arrow with the retention
 *   popup's 仍要离开) used to land on the submitted form, blank, with 提交申请. The form now leaves the
 *   history when it is submitted: back leaves the flow.
 * - 44.4 (`demo-skin8`): the second authorisation offered only 请勾选要申请的机构 and its arrow went back
 *   to the submitted form. It now has 跳过，查看结果, and its arrow shows the first consent's result; one
 *   hint paragraph (44.16).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { phonePage, shot, unexpectedErrors } from './browser.ts';
import { formItem, seedSession, submitGoodForm } from './form.ts';
import { useServerAndBrowser } from './harness.ts';
import { logInWithCode, loginPerson } from './person.ts';

const e2e = useServerAndBrowser();

interface Offer {
  id: string;
  productName: string;
}

/**
 * The ad link's landing, logged in on its card (立即申请) with the code from the dev outbox. The home
 * dialog banner (ADR 016: it opens at a first interaction, e.g. the scroll of a click) is answered
 * "none today", so it cannot cover the card mid-login.
 */
async function landAndLogin(page: Page, channel: string) {
  await page.route('**/api/banner/homeDialogBanner?*', (route) =>
    route.fulfill({ json: { code: 200, msg: 'success', data: null } }),
  );
  await page.goto(`${e2e.server.url}/?adChannelCode=${channel}`);
  await logInWithCode(page, e2e.server.url, `131${String(Date.now()).slice(-8)}`, '立即申请');
}

/** The application form (Guangzhou, lenders of every kind match) filled and submitted; the offers. */
async function submitForm(page: Page): Promise<Offer[]> {
  await formItem(page, '借款金额').waitFor({ timeout: 15_000 });
  const body = (await (await submitGoodForm(page)).json()) as {
    code: number;
    data: Offer & { mayAuthProductList: Offer[] };
  };
  expect(body.code).toBe(200);
  return [body.data, ...body.data.mayAuthProductList];
}

const card = (page: Page, name: string) =>
  page
    .locator('li')
    .filter({ has: page.getByText(name, { exact: true }) })
    .first();

/** Ticks `offer` on the authorise page and consents. */
async function consentTo(page: Page, offer: Offer) {
  await card(page, offer.productName).waitFor({ timeout: 15_000 });
  await card(page, offer.productName).locator('.adm-checkbox').click();
  const answered = page.waitForResponse((r) => r.url().endsWith('/api/user/info/auth'));
  await page.getByRole('button', { name: '同意授权并申请（1家）' }).click();
  expect((await (await answered).json()).code).toBe(200);
}

const onTheForm = async (page: Page) =>
  new URL(page.url()).pathname === '/fill-information' ||
  (await page.getByRole('button', { name: '提交申请' }).count()) > 0;

/** The result page after a consent: the consented lender listed. */
async function expectResult(page: Page, offer: Offer) {
  await page.waitForURL(/\/fill-information\/success/, { timeout: 15_000 });
  await page.getByRole('region', { name: '已授权机构' }).getByText(offer.productName).waitFor();
}

describe('after a consent (ADR 059)', () => {
  it('demo: back from the result leaves the flow — never the submitted form (44.5)', async () => {
    const { page, errors, context } = await phonePage(e2e.browser);
    await landAndLogin(page, 'demo');
    await page.waitForURL(/\/fill-information(\?|$)/, { timeout: 15_000 });
    const offers = await submitForm(page);
    await page.waitForURL(/\/fill-information\/common-authorize/, { timeout: 15_000 });
    await consentTo(page, offers[0]!);
    await expectResult(page, offers[0]!);

    // The browser's back, answering the retention popup with 仍要离开 if it asks, until the site is
    // left: the form never shows again.
    const origin = e2e.server.url;
    const popup = page.getByText('确定要离开吗？');
    for (let press = 0; press < 3 && page.url().startsWith(origin); press++) {
      const before = page.url();
      await page.goBack();
      await expect
        .poll(async () => page.url() !== before || (await popup.isVisible()), { timeout: 10_000 })
        .toBe(true);
      if (page.url() === before) {
        await page.getByRole('button', { name: '仍要离开' }).click();
        await page.waitForURL((url) => url.href !== before, { timeout: 10_000 });
      }
      if (page.url().startsWith(origin)) {
        await page.waitForLoadState('networkidle');
        expect(await onTheForm(page), `back pressed ${press + 1}× shows the form: ${page.url()}`).toBe(false);
      }
    }
    expect(page.url().startsWith(origin), `still in the site after 3 back presses: ${page.url()}`).toBe(
      false,
    );
    expect(unexpectedErrors(errors)).toEqual([]);
    await context.close();
  });

  it('demo: the result page’s arrow asks first (retention popup), then leaves to the product list (44.5)', async () => {
    const person = await loginPerson(e2e.server.url, '131');
    const { page, errors, context } = await phonePage(e2e.browser);
    await seedSession(context, person, 'demo');
    await page.goto(`${e2e.server.url}/fill-information`);
    const offers = await submitForm(page);
    await page.waitForURL(/\/fill-information\/common-authorize/, { timeout: 15_000 });
    await consentTo(page, offers[0]!);
    await expectResult(page, offers[0]!);

    await page.locator('.adm-nav-bar-back').click();
    await page.getByText('确定要离开吗？').waitFor({ timeout: 10_000 });
    expect(new URL(page.url()).pathname).toBe('/fill-information/success');
    await page.getByRole('button', { name: '仍要离开' }).click();
    await page.waitForURL(/\/borrow-money/, { timeout: 10_000 });
    expect(await onTheForm(page)).toBe(false);
    expect(unexpectedErrors(errors)).toEqual([]);

    // And the browser's back from there does not find the form either (it leaves the site: the
    // session's init script then fails to read about:blank's storage, which is no error of the page).
    await page.goBack();
    await page.waitForLoadState('networkidle');
    if (page.url().startsWith(e2e.server.url)) expect(await onTheForm(page)).toBe(false);
    await context.close();
  });

  it('demo-skin8: the second authorisation has one hint and 跳过，查看结果; its arrow and the skip show the first consent’s result (44.4)', async () => {
    for (const way of ['arrow', 'skip'] as const) {
      const person = await loginPerson(e2e.server.url, '131');
      const { page, errors, context } = await phonePage(e2e.browser);
      await seedSession(context, person, 'demo-skin8');
      await page.goto(`${e2e.server.url}/fill-information`);
      const offers = await submitForm(page);
      await page.waitForURL(/\/fill-information\/common-authorize/, { timeout: 15_000 });
      await consentTo(page, offers[0]!);

      await page.waitForURL(/\/seconed-match-authorize/, { timeout: 15_000 });
      // The second page's own hint (the first page stays on screen until its code has loaded).
      const hint = page.getByText(/^您的授权已提交。/);
      await hint.waitFor({ timeout: 15_000 });
      // One paragraph says how consent works here, not two.
      expect(await page.getByText(/可为您提供/).count()).toBe(1);
      const skip = page.getByRole('button', { name: '跳过，查看结果' });
      expect(await skip.isVisible()).toBe(true);
      if (way === 'arrow') await shot(page, 'second-authorize-skip');

      if (way === 'arrow') await page.locator('.adm-nav-bar-back').click();
      else await skip.click();
      await expectResult(page, offers[0]!);
      expect(await onTheForm(page)).toBe(false);
      if (way === 'skip') await shot(page, 'second-authorize-skipped-result');
      expect(unexpectedErrors(errors)).toEqual([]);
      await context.close();
    }
  }, 150_000);
});
