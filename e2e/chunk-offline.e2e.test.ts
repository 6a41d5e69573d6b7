import { resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { phonePage, SCREENSHOT_DIR, shot } from './browser.ts';
import { formItem, seedSession } from './form.ts';
import { useServerAndBrowser } from './harness.ts';
import { loginPerson } from './person.ts';

/**
 * Issue 44.1: a chunk or stylesheet that fails to load (the network is gone a second after the first
 * paint) never takes the page down: the form stays, 网络连接错误 says why, and the part loads once the
 * network is back (docs/decisions/058).
 */
const e2e = useServerAndBrowser();

const NETWORK_ERROR = '网络连接错误';

/**
 * Cuts the network: the browser goes offline, and the asset requests made from now on fail (also
 * those the browser would still answer from a connection already open).
 */
async function goOffline(page: Page, context: BrowserContext): Promise<() => Promise<void>> {
  const failAssets = (route: { abort(code: string): Promise<void> }) => route.abort('internetdisconnected');
  await page.route(/\/assets\/.+\.(js|css)$/, failAssets);
  await context.setOffline(true);
  return async () => {
    await page.unroute(/\/assets\/.+\.(js|css)$/, failAssets);
    await context.setOffline(false);
  };
}

/** Neither error page is shown and the phone field still holds what was typed. */
async function expectFormKept(page: Page, phone: string) {
  expect(await page.getByText('页面出错了').count()).toBe(0);
  expect(await page.getByText('页面加载失败').count()).toBe(0);
  expect(await page.getByPlaceholder('请输入手机号').inputValue()).toBe(phone);
}

/** The failures the browser reports while offline are expected; nothing else may go wrong. */
const appErrors = (errors: string[]) =>
  errors.filter(
    (e) =>
      !e.includes('net::ERR_INTERNET_DISCONNECTED') &&
      !e.includes('net::ERR_CONNECTION_REFUSED') &&
      !e.includes('Failed to load resource') &&
      !e.includes('Unable to preload CSS'),
  );

describe('a chunk or stylesheet that fails never replaces the page (issue 44.1)', () => {
  it('landing: offline before the home dialog loads, typing keeps the form, 网络连接错误; online again, the dialog opens', async () => {
    const { page, context, errors } = await phonePage(e2e.browser);
    const dialogAssets: string[] = [];
    page.on('requestfinished', (r) => {
      if (/\/assets\/home-dialog-[\w-]+\.(js|css)$/.test(r.url())) dialogAssets.push(r.url());
    });
    await page.goto(`${e2e.server.url}/?adChannelCode=demo`, { waitUntil: 'domcontentloaded' });
    const field = page.getByPlaceholder('请输入手机号');
    await field.waitFor();
    // Within a second of the first paint: the home dialog (loaded 1.2 s after it) is still to come.
    const online = await goOffline(page, context);
    expect(dialogAssets).toEqual([]);
    await page.waitForTimeout(2000);

    const phone = '13800138000';
    await field.tap();
    await page.keyboard.type(phone);
    await page.getByText(NETWORK_ERROR, { exact: true }).waitFor({ timeout: 3000 });
    await expectFormKept(page, phone);
    await shot(page, 'chunk-offline-landing');
    // Still there a while later, after more touches.
    await page.getByRole('heading', { level: 1 }).tap();
    await page.waitForTimeout(1500);
    await expectFormKept(page, phone);

    // Back online: the dialog's chunk and stylesheet load, and it opens at the next interaction.
    await online();
    await expect.poll(() => dialogAssets.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    await field.blur();
    await page.getByRole('heading', { level: 1 }).tap();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor({ timeout: 10_000 });
    // 网络连接错误 is no longer true: not left on screen over the dialog.
    expect(await page.getByText(NETWORK_ERROR, { exact: true }).count()).toBe(0);
    // Styled: its stylesheet was loaded again (the mask covers the screen).
    const position = await dialog.evaluate((el) => {
      let node: HTMLElement | null = el as HTMLElement;
      while (node && getComputedStyle(node).position !== 'fixed') node = node.parentElement;
      return node ? getComputedStyle(node).position : 'static';
    });
    expect(position).toBe('fixed');
    await expectFormKept(page, phone);
    // The screen as seen (a full-page shot would draw the fixed mask over the top part only).
    await page.screenshot({
      path: resolve(SCREENSHOT_DIR, 'chunk-offline-dialog-after.png'),
      animations: 'disabled',
    });
    expect(appErrors(errors)).toEqual([]);
    await context.close();
  });

  it('a page link followed offline stays on the page with 网络连接错误, and opens once online', async () => {
    const { page, context, errors } = await phonePage(e2e.browser);
    await page.goto(`${e2e.server.url}/?adChannelCode=demo`, { waitUntil: 'load' });
    const field = page.getByPlaceholder('请输入手机号');
    await field.waitFor();
    const phone = '13900139000';
    await field.fill(phone);
    const online = await goOffline(page, context);

    // The announcement is a page of its own chunk, not loaded yet.
    await page.getByRole('link', { name: '查看《澄清公告》' }).tap();
    await page.getByText(NETWORK_ERROR, { exact: true }).waitFor({ timeout: 3000 });
    await page.waitForTimeout(1500);
    await expectFormKept(page, phone);
    await shot(page, 'chunk-offline-navigation');

    await online();
    await page.getByRole('heading', { name: '澄清公告' }).first().waitFor({ timeout: 10_000 });
    expect(new URL(page.url()).pathname).toBe('/clarification-announcement');
    expect(await page.getByText('页面加载失败').count()).toBe(0);
    // Back: the landing again, with what was typed.
    await page.goBack();
    await field.waitFor();
    expect(appErrors(errors)).toEqual([]);
    await context.close();
  });

  it('login → the form on a dead network (the browser says online): the login page stays, then the form comes', async () => {
    const { page, context, errors } = await phonePage(e2e.browser);
    await page.goto(`${e2e.server.url}/login?adChannelCode=demo`, { waitUntil: 'load' });
    await page.getByPlaceholder('请输入手机号').waitFor();
    const phone = `137${String(Date.now()).slice(-8)}`;

    // Logged in while the form's chunk cannot be loaded: the login page stays, then the form comes.
    await page.getByPlaceholder('请输入手机号').fill(phone);
    await page.getByText('我已阅读并同意').click();
    await page.getByRole('button', { name: '获取验证码' }).click();
    await expect.poll(() => page.getByText(/\d+s后重新获取/).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    const res = await fetch(`${e2e.server.url}/api/dev/sms-outbox?phone=${phone}`);
    const [sms] = ((await res.json()) as { data: { code: string }[] }).data;
    await page.getByPlaceholder(/验证码/).fill(sms!.code);
    await page.waitForTimeout(500); // the post-login step's chunk (fetched once the code was sent)
    const deadAgain = await deadNetwork(page);
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.getByText(NETWORK_ERROR, { exact: true }).waitFor({ timeout: 10_000 });
    await page.waitForTimeout(1500);
    expect(await page.getByText('页面出错了').count()).toBe(0);
    expect(await page.getByText('页面加载失败').count()).toBe(0);
    expect(await page.getByRole('heading', { name: '手机号登录' }).isVisible()).toBe(true);
    await shot(page, 'chunk-dead-network-after-login');
    await deadAgain.restore();
    await page.waitForURL((url) => url.pathname !== '/login', { timeout: 15_000 });
    await page
      .getByRole('button', { name: /提交|下一步|申请/ })
      .first()
      .waitFor({ timeout: 15_000 });
    expect(await page.getByText('页面出错了').count()).toBe(0);
    expect(await page.getByText('页面加载失败').count()).toBe(0);
    await shot(page, 'chunk-dead-network-form');
    expect(appErrors(errors)).toEqual([]);
    await context.close();
  });

  it('the city picker opened offline: the form stays, 网络连接错误; online again, the picker opens with its regions', async () => {
    const person = await loginPerson(e2e.server.url, '135');
    const { page, context, errors } = await phonePage(e2e.browser);
    await seedSession(context, person, 'demo');
    await page.goto(`${e2e.server.url}/fill-information?adChannelCode=demo`, {
      waitUntil: 'domcontentloaded',
    });
    const city = formItem(page, '工作城市').locator('button');
    await city.waitFor();
    // Before the picker is prefetched (2.5 s after the load, when idle).
    const online = await goOffline(page, context);
    await city.click();
    await page.getByText(NETWORK_ERROR, { exact: true }).waitFor({ timeout: 5000 });
    await page.waitForTimeout(1000);
    expect(await page.getByText('页面出错了').count()).toBe(0);
    expect(await page.getByText('页面加载失败').count()).toBe(0);
    expect(await city.isVisible()).toBe(true);
    await shot(page, 'chunk-offline-city-picker');

    await online();
    const province = page.locator('.adm-picker-view-column').first().locator('.adm-picker-view-column-item');
    await expect.poll(() => province.count(), { timeout: 15_000 }).toBeGreaterThan(10);
    expect(appErrors(errors)).toEqual([]);
    await context.close();
  });
});

/** Chunks and the server's pages fail as on a dead network, while navigator.onLine stays true. */
async function deadNetwork(page: Page): Promise<{ restore(): Promise<void> }> {
  const fail = (route: { abort(code: string): Promise<void> }) => route.abort('connectionrefused');
  const pages = (url: URL) => !url.pathname.startsWith('/api/') && !url.pathname.startsWith('/assets/');
  await page.route(/\/assets\/.+\.(js|css)$/, fail);
  await page.route(pages, fail);
  return {
    async restore() {
      await page.unroute(/\/assets\/.+\.(js|css)$/, fail);
      await page.unroute(pages, fail);
    },
  };
}
