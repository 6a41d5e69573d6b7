import { THEMES } from '@lm/shared/channel';
import { formatShanghai } from '@lm/shared/time';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, phonePage, shot } from './browser.ts';
import { consolePage, startServerWithStaff } from './console.ts';
import type { RunningServer } from './server.ts';

let server: RunningServer;
let browser: Browser;

const PASSWORD = 'channel console e2e';
const ADMIN_PHONE = '13500000071';
const OPERATOR_PHONE = '13500000072';
const CODE = `e2e-purple-${Date.now().toString(36)}`;
/** skin12 uses the banner-benefits landing layout; purple is #7B4DFF, painted as its shade #7a4cfc. */
const SKIN = 12;
const LAYOUT = 'banner-benefits';
const PURPLE = THEMES.purple.ink;

beforeAll(async () => {
  server = await startServerWithStaff(
    [
      { phone: ADMIN_PHONE, name: '渠道管理员', role: 'admin' },
      { phone: OPERATOR_PHONE, name: '渠道运营', role: 'operator' },
    ],
    PASSWORD,
  );
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const consolePageOf = (phone: string, name: string) =>
  consolePage(browser, server, { phone, name, password: PASSWORD });

const cssPrimary = (page: Page) =>
  page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--app-primary').trim());

async function apiAs(phone: string) {
  const res = await fetch(`${server.url}/api/crm/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ phone, password: PASSWORD }),
  });
  const token = ((await res.json()) as { data: { token: string } }).data.token;
  return async <T>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ code: number; msg: string; data: T }> => {
    const r = await fetch(`${server.url}${path}`, {
      method,
      headers: { accesstoken: token, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return (await r.json()) as { code: number; msg: string; data: T };
  };
}

/** The preview's calls (the console's token, the framed H5's h5Config), each `status path code`. */
function recordPreviewCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('response', async (res) => {
    const url = new URL(res.url());
    if (!/\/api\/(admin\/channels\/preview|.*h5Config)/.test(url.pathname)) return;
    const body = await res.text().catch(() => '');
    calls.push(`${res.status()} ${url.pathname}${url.search.slice(0, 40)} ${body.slice(0, 120)}`);
  });
  page.on('requestfailed', (req) => {
    if (/preview|h5Config/.test(req.url()))
      calls.push(`failed ${req.url().slice(0, 80)} ${req.failure()?.errorText}`);
  });
  return calls;
}

/** What the preview pane shows, for a failure's message: the form's skin, the pane's text, the frame. */
async function previewState(page: Page, calls: string[]): Promise<string> {
  const skin = await page
    .getByRole('combobox', { name: '皮肤' })
    .evaluate((el) => el.closest('.ant-select')?.textContent);
  const pane = await page
    .locator('.ant-card', { hasText: '实时预览' })
    .first()
    .innerText()
    .catch((e) => String(e));
  const frame = page.frames().find((f) => f.url().includes('previewToken='));
  const layouts = frame
    ? await frame.evaluate(() =>
        Array.from(document.querySelectorAll('main[data-layout]'), (m) => m.getAttribute('data-layout')),
      )
    : 'no preview frame';
  await shot(page, 'console-channel-new-preview-failed');
  return `skin select: ${skin}\npane: ${pane}\nframe layouts: ${JSON.stringify(layouts)}\ncalls:\n${calls.join('\n')}`;
}

describe('console channels in Chromium', () => {
  let channelId = 0;

  it('an operator creates a channel with a non-default skin (live preview beside the form); the H5 shows that skin', async () => {
    const { page, errors } = await consolePageOf(OPERATOR_PHONE, '渠道运营');
    const previewCalls = recordPreviewCalls(page);
    await page.goto(`${server.url}/admin/channels`);
    await page.getByText('渠道管理').first().waitFor();
    await page.getByRole('button', { name: '新建渠道' }).click();
    await page.getByRole('textbox', { name: '渠道码' }).fill(CODE);
    await page.getByRole('textbox', { name: '渠道名称' }).fill('紫色春季投放');
    await page.getByRole('combobox', { name: '皮肤' }).click({ force: true });
    await page.keyboard.type(`skin${SKIN}`);
    await page
      .locator('.ant-select-item-option', { hasText: `skin${SKIN}` })
      .first()
      .click();
    await page.getByText('紫色', { exact: true }).click();

    // The preview frames the H5 with the unsaved values.
    const frame = page.frameLocator('iframe[title="渠道H5预览"]');
    await frame
      .locator(`main[data-layout="${LAYOUT}"]`)
      .waitFor({ timeout: 20_000 })
      .catch(async (err: Error) => {
        throw new Error(`${err.message}\n${await previewState(page, previewCalls)}`);
      });
    const previewFrame = page.frames().find((f) => f.url().includes('previewToken='))!;
    await expect.poll(() => cssPrimary(previewFrame as unknown as Page)).toBe(PURPLE);
    await shot(page, 'console-channel-new-preview');

    await page.getByRole('button', { name: '创建渠道' }).click();
    await page.waitForURL(/\/admin\/channels\/\d+$/, { timeout: 15_000 });
    channelId = Number(/\/channels\/(\d+)$/.exec(page.url())![1]);
    await page.getByText(`编辑渠道 ${CODE}`).waitFor();
    await shot(page, 'console-channel-edit');

    // The list shows it.
    await page.goto(`${server.url}/admin/channels?q=${CODE}`);
    await page.getByRole('link', { name: CODE }).first().waitFor();
    await expect.poll(() => page.getByText(`skin${SKIN}`).count()).toBeGreaterThan(0);
    await shot(page, 'console-channels-list');

    // A visitor opens the H5 with the code and sees the skin and colour.
    const phone = await phonePage(browser);
    await phone.page.goto(`${server.url}/?adChannelCode=${CODE}`);
    await phone.page.locator(`main[data-layout="${LAYOUT}"]`).waitFor({ timeout: 15_000 });
    await expect.poll(() => cssPrimary(phone.page)).toBe(PURPLE);
    await shot(phone.page, 'web-channel-skin12-purple');
    expect(phone.errors).toEqual([]);
    await phone.context.close();
    expect(errors).toEqual([]);
  });

  it("a viewer's save is refused with 403 and the console says so; a viewer sees the form read-only", async () => {
    expect(channelId).toBeGreaterThan(0);
    const { page } = await consolePageOf(OPERATOR_PHONE, '渠道运营');
    await page.goto(`${server.url}/admin/channels/${channelId}`);
    await page.getByText(`编辑渠道 ${CODE}`).waitFor();

    // While the page is open, the admin makes this account a viewer.
    const admin = await apiAs(ADMIN_PHONE);
    const staffList = await admin<{ list: { id: number; name: string }[] }>(
      'GET',
      '/api/admin/staff?pageSize=200',
    );
    const me = staffList.data.list.find((s) => s.name === '渠道运营')!;
    expect((await admin('PUT', `/api/admin/staff/${me.id}`, { role: 'viewer' })).code).toBe(200);

    await page.getByRole('textbox', { name: '渠道名称' }).fill('只读账号的修改');
    const saved = page.waitForResponse(
      (r) => r.url().endsWith(`/api/admin/channels/${channelId}`) && r.request().method() === 'PUT',
    );
    await page.getByRole('button', { name: /^保\s*存$/ }).click();
    expect((await saved).status()).toBe(403);
    await page.getByText('没有权限执行此操作').first().waitFor();
    await shot(page, 'console-channel-viewer-403');

    // Nothing changed on the server; after a reload the viewer sees a read-only form.
    const detail = await admin<{ name: string }>('GET', `/api/admin/channels/${channelId}`);
    expect(detail.data.name).toBe('紫色春季投放');
    await page.reload();
    await page.getByText('只读：仅管理员和运营可以修改渠道').waitFor();
    await expect.poll(() => page.getByRole('button', { name: /^保\s*存$/ }).isDisabled()).toBe(true);
    await expect.poll(() => page.getByRole('textbox', { name: '渠道名称' }).isDisabled()).toBe(true);
    await shot(page, 'console-channel-viewer-readonly');
  });

  it('issue 44.19: a dead route code’s visitor lands on the default page; the operator sees the hits counted', async () => {
    // Visitors of ad links with the disabled demo code r-off and with a code nobody made.
    for (const code of ['r-off', 'r-typo-44']) {
      const phone = await phonePage(browser);
      const exchanged = phone.page.waitForResponse((r) =>
        r.url().includes(`/api/adChannel/exchange/adChannelCode?adRouteCode=${code}`),
      );
      await phone.page.goto(`${server.url}/?adRouteCode=${code}`);
      expect((await exchanged).status()).toBe(404);
      // The default landing (skin 17, hero-card), which goes on to the application as usual.
      await phone.page.locator('main[data-layout="hero-card"]').waitFor({ timeout: 15_000 });
      expect(await phone.page.evaluate(() => localStorage.getItem('ad_channel_code'))).toBeNull();
      if (code === 'r-off') await shot(phone.page, 'issue44-dead-route-code-visitor');
      // The browser logs the exchange's 404 and nothing else.
      expect(phone.errors.filter((e) => !e.includes('status of 404') && !e.startsWith('404 '))).toEqual([]);
      await phone.context.close();
    }

    const admin = await apiAs(ADMIN_PHONE);
    const misses = await admin<{ list: { routeCode: string; hits: number; lastSeenAt: string }[] }>(
      'GET',
      '/api/admin/route-code-misses',
    );
    const off = misses.data.list.find((m) => m.routeCode === 'r-off')!;
    expect(off.hits).toBeGreaterThanOrEqual(1);

    const { page, errors } = await consolePageOf(ADMIN_PHONE, '渠道管理员');
    await page.goto(`${server.url}/admin/channels`);
    const card = page.getByTestId('dead-route-codes');
    const offRow = card.locator('.ant-table-row', { hasText: 'r-off' });
    await offRow.waitFor({ timeout: 15_000 });
    const offText = await offRow.innerText();
    expect(offText).toContain('已停用');
    expect(offText).toContain('（demo）');
    expect(offText).toContain(`${off.hits} 次`);
    expect(offText).toContain(formatShanghai(off.lastSeenAt, 'second'));
    expect(await card.locator('.ant-table-row', { hasText: 'r-typo-44' }).innerText()).toContain('不存在');
    await card.scrollIntoViewIfNeeded();
    await shot(page, 'issue44-dead-route-codes');

    // The channel's own route codes list: 失效访问 beside the disabled code.
    await offRow.getByRole('link').click();
    await page.waitForURL(/\/admin\/channels\/\d+$/);
    await page.getByText('编辑渠道 demo').waitFor({ timeout: 15_000 });
    const routeRow = page.locator('.ant-table-row', { hasText: 'r-off' });
    await routeRow.waitFor({ timeout: 15_000 });
    expect(await routeRow.innerText()).toContain(
      `${off.hits} 次，最近 ${formatShanghai(off.lastSeenAt, 'second')}`,
    );
    await routeRow.scrollIntoViewIfNeeded();
    await shot(page, 'issue44-route-codes-misses');
    expect(errors).toEqual([]);
  });

  it('a preview whose token request failed says so; 重试 asks again and the preview comes', async () => {
    const { page, errors } = await consolePageOf(ADMIN_PHONE, '渠道管理员');
    // The first ask for a preview token fails as a lost connection would; the next ones go through.
    let refused = 0;
    await page.route('**/api/admin/channels/preview', (route) => {
      if (refused++ === 0) return route.abort('connectionreset');
      return route.continue();
    });
    await page.goto(`${server.url}/admin/channels`);
    await page.getByRole('button', { name: '新建渠道' }).click();
    const alert = page.getByRole('alert').filter({ hasText: '预览暂不可用' });
    await alert.waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByText('暂无预览').isVisible()).toBe(true);
    await shot(page, 'console-channel-preview-failed');

    await alert.getByRole('button', { name: /重\s*试/ }).click();
    const frame = page.frameLocator('iframe[title="渠道H5预览"]');
    await frame.locator('main[data-layout]').waitFor({ timeout: 20_000 });
    await expect.poll(() => alert.count()).toBe(0);
    expect(refused).toBe(2);
    // The aborted request is the browser's own console error; nothing else.
    expect(errors.filter((e) => !e.includes('net::ERR_CONNECTION_RESET'))).toEqual([]);
  });
});
