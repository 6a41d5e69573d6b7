/**
 * Issue 16.9: answers of a match that the demo data never produced, now reachable at any hour with the
 * demo products of apps/server/src/modules/products/seed.ts (STATE_DEMO_PRODUCTS; docs/demo.md "Demo states"):
 * - Lhasa: the person qualifies only for a product whose daily cap is 0 → applyStatus 0, the sold-out
 *   alert, then the result page without a submission;
 * - Yinchuan: the match offers an H5-redirect lender (link type 1) and a joint-login lender (link type
 *   8); consenting to both, the result page offers "去申请" to the first, and the first step back there
 *   (the page's arrow: the form is not in the history under it, ADR 059) opens the retention popup.
 */
import { describe, expect, it } from 'vitest';
import { phonePage, shot, unexpectedErrors } from './browser.ts';
import { LHASA_NOTHING_ELSE, type Offer, submitForm, YINCHUAN } from './demo-states.ts';
import { useServerAndBrowser } from './harness.ts';
import { loginPerson, signIn } from './person.ts';

const e2e = useServerAndBrowser();

describe('demo states reachable at any hour', () => {
  it('sold out (Lhasa): applyStatus 0, the alert, then the result page without a submission', async () => {
    const person = await loginPerson(e2e.server.url, '133');
    const { page, context, errors } = await phonePage(e2e.browser);
    await signIn(context, person);
    const match = await submitForm(page, e2e.server.url, LHASA_NOTHING_ELSE);
    expect(match.applyStatus).toBe(0);
    expect(match.productName).toBeNull();
    const alert = page.getByText('今日可申请名额已满', { exact: false });
    await alert.waitFor({ timeout: 10_000 });
    // Issue 44.16: the alert's body does not repeat its title.
    const dialog = page.locator('.adm-dialog');
    expect(await dialog.locator('.adm-dialog-title').innerText()).toBe('产品已售罄');
    expect(await dialog.locator('.adm-dialog-content').innerText()).not.toContain('产品已售罄');
    await page.waitForTimeout(400);
    await shot(page, 'state-sold-out-alert');
    await page.getByText('我知道了', { exact: true }).click();
    await page.waitForURL(/\/fill-information\/success/, { timeout: 10_000 });
    expect(decodeURIComponent(page.url())).toMatch(/soldOut/);
    await page.getByText('今日名额已满').waitFor();
    // Nothing was sent: the page does not say lenders may call.
    const text = await page.evaluate(() => document.body.innerText);
    expect(text).toContain('温馨提示');
    expect(text).not.toMatch(/合作机构可能通过电话或短信与您联系/);
    await shot(page, 'state-sold-out-result');
    // Nor does the retention popup promise progress or a lender's call.
    await page.locator('.adm-nav-bar-back').click();
    const popup = page.locator('.adm-center-popup-body');
    await popup.getByText('确定要离开吗？').waitFor({ timeout: 10_000 });
    expect(await popup.innerText()).toContain('您的资料已保存。下载App，随时查看可申请的机构。');
    expect(await popup.innerText()).not.toMatch(/进度|机构联系/);
    await page.getByRole('button', { name: '留在本页' }).click();
    expect(unexpectedErrors(errors)).toEqual([]);
    await context.close();
  }, 90_000);

  it('H5-redirect and joint-login lenders (Yinchuan), then the retention popup on the result page', async () => {
    const person = await loginPerson(e2e.server.url, '134');
    const { page, context, errors } = await phonePage(e2e.browser);
    await signIn(context, person);
    const match = await submitForm(page, e2e.server.url, YINCHUAN);
    expect(match.applyStatus).toBe(1);
    const offers = [match as Offer, ...match.mayAuthProductList];
    const redirect = offers.find((o) => o.productName === '星河塞上快贷');
    const joint = offers.find((o) => o.productName === '和信塞上联合贷');
    expect(redirect).toMatchObject({ linkType: 1 });
    expect(redirect!.thirdpartyTargetUrl).toMatch(/^https:\/\/partner-a\.example\.com\//);
    expect(joint).toMatchObject({ linkType: 8 });

    await page.waitForURL(/\/fill-information\/common-authorize/, { timeout: 15_000 });
    const card = (name: string) => page.locator('li').filter({ has: page.getByText(name, { exact: true }) });
    await card(redirect!.productName).waitFor();
    await shot(page, 'state-redirect-joint-offers');
    await card(redirect!.productName).locator('.adm-checkbox').click();
    await card(joint!.productName).locator('.adm-checkbox').click();
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/user/info/auth'));
    await page.getByRole('button', { name: '同意授权并申请（2家）' }).click();
    const auth = (await (await answered).json()) as {
      code: number;
      data: { consented: { productId: string; mode: string }[] };
    };
    expect(auth.code).toBe(200);
    const modes = Object.fromEntries(auth.data.consented.map((c) => [c.productId, c.mode]));
    expect(modes).toEqual({ [redirect!.id]: 'h5Redirect', [joint!.id]: 'jointLogin' });

    await page.waitForURL(/\/fill-information\/success/, { timeout: 15_000 });
    const goApply = card(redirect!.productName).getByRole('button', { name: '去申请' });
    await goApply.waitFor({ timeout: 10_000 });
    await shot(page, 'state-redirect-result');

    // Retention: the first step back on the result page is held and asks. The result is this visit's
    // first entry (the submitted form left the history): the page's arrow is the step back it can hold.
    const resultUrl = page.url();
    await page.locator('.adm-nav-bar-back').click();
    const popup = page.getByText('确定要离开吗？');
    await popup.waitFor({ timeout: 10_000 });
    await page.waitForTimeout(400);
    await shot(page, 'state-retention-popup');
    expect(page.url()).toBe(resultUrl);
    await page.getByRole('button', { name: '留在本页' }).click();
    await popup.waitFor({ state: 'hidden' });
    expect(page.url()).toBe(resultUrl);
    expect(unexpectedErrors(errors)).toEqual([]);
    await context.close();
  }, 90_000);
});
