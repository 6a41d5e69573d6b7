/**
 * Issue 44 item 10 (ADR 057): one operator identity per channel. On a channel's pages the footer and the
 * agreements name the same company — the channel's operator record — and a console edit of that record is
 * what the next visitor reads.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, phonePage, shot } from './browser.ts';
import { type RunningServer, runCli, startServer } from './server.ts';

let server: RunningServer;
let browser: Awaited<ReturnType<typeof launch>>;

const PASSWORD = 'operators console e2e';
const OPERATOR_PHONE = '13500000181';

beforeAll(async () => {
  server = await startServer();
  // The embedded database belongs to one process: create the staff member while the server is down.
  expect(await server.stop()).toBe(0);
  await runCli(
    [
      'apps/server/src/cli/admin-create.ts',
      '--phone',
      OPERATOR_PHONE,
      '--name',
      '主体运营',
      '--role',
      'operator',
      '--password',
      PASSWORD,
    ],
    { DATA_DIR: server.dataDir },
  );
  server = await startServer({}, server.dataDir);
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The company and filing number the page's footer names (its first licensed-company line). */
async function footerCompany(page: Page): Promise<string> {
  const line = page.locator('footer li').first();
  await line.waitFor({ timeout: 15_000 });
  return (await line.locator('span').first().innerText()).trim();
}

/** Opens the channel's landing, then its register agreement (the channel is remembered): both companies. */
async function companiesOn(channel: string, shotPrefix: string) {
  const { page, errors, context } = await phonePage(browser);
  await page.goto(`${server.url}/?adChannelCode=${channel}`);
  await page.locator('form button[type="submit"]').first().waitFor({ timeout: 15_000 });
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
  const landingFooter = await footerCompany(page);
  await page.locator('footer').last().scrollIntoViewIfNeeded();
  await shot(page, `${shotPrefix}-landing`);

  await page.goto(`${server.url}/register-agreement`);
  const party = page.locator('article p', { hasText: '本协议是您与' }).first();
  await party.waitFor({ timeout: 15_000 });
  const agreementParty = /本协议是您与(.+?)之间/.exec(await party.innerText())?.[1] ?? '';
  await shot(page, `${shotPrefix}-register-agreement`);
  const agreementFooter = await footerCompany(page);
  await context.close();
  return { landingFooter, agreementParty, agreementFooter, errors };
}

describe('one operator identity per channel in Chromium', () => {
  it.each([
    ['demo', '北京星河融信信息技术有限公司'],
    ['demo-skin8', '深圳前海融通金融信息服务有限公司'],
  ])('on %s the footer and the register agreement name the same company', async (channel, company) => {
    const seen = await companiesOn(channel, `web-operator-${channel}`);
    expect(seen).toEqual({
      landingFooter: company,
      agreementParty: company,
      agreementFooter: company,
      errors: [],
    });
  });

  it("a console edit of an operator is what the channel's next visitor reads", async () => {
    const { page, errors, context } = await phonePage(browser);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${server.url}/admin/login`);
    await page
      .getByPlaceholder(/手机号/)
      .first()
      .fill(OPERATOR_PHONE);
    await page.getByPlaceholder(/密码/).first().fill(PASSWORD);
    await page
      .getByRole('button', { name: /登\s*录/ })
      .first()
      .click();
    await page.getByText('主体运营').first().waitFor({ timeout: 15_000 });

    await page.getByRole('menuitem', { name: '运营主体' }).click();
    await page.getByRole('link', { name: '深圳前海融通金融信息服务有限公司' }).click();
    const name = page.getByLabel('公司全称（签约主体）');
    await name.waitFor();
    await page.getByText('demo-skin8').first().waitFor();
    await shot(page, 'console-operator-edit');

    // A signature the carriers refuse: the server says why in Chinese (the form's own check aside).
    // The console keeps its token under ADMIN_TOKEN (apps/admin/src/config/constants.ts).
    const token = await page.evaluate(() => localStorage.getItem('ADMIN_TOKEN') ?? '');
    const res = await fetch(`${server.url}/api/admin/operators`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accesstoken: token },
      body: JSON.stringify({
        code: 'e2e-bad',
        companyName: '某某科技有限公司',
        shortName: '某某',
        filingNumber: '京ICP备2026000001号',
        smsSignature: '某',
        address: '北京市海淀区某路 1 号',
        servicePhone: '400-800-2026',
        email: 'dpo@e2e.example.cn',
      }),
    });
    const refused = { status: res.status, msg: ((await res.json()) as { msg: string }).msg };
    expect(refused).toMatchObject({ status: 400, msg: expect.stringContaining('短信签名为 2 到 12 个') });

    await name.fill('深圳前海新融通科技有限公司');
    await page.getByLabel('简称').fill('新融通');
    await page.getByText('本协议是您与深圳前海新融通科技有限公司（以下简称“新融通”）').waitFor();
    await page.getByRole('button', { name: /保存修改/ }).click();
    await page.getByText('已保存，相关渠道立即生效').waitFor({ timeout: 15_000 });
    await shot(page, 'console-operator-saved');
    expect(errors).toEqual([]);
    await context.close();

    const seen = await companiesOn('demo-skin8', 'web-operator-edited-demo-skin8');
    expect(seen).toEqual({
      landingFooter: '深圳前海新融通科技有限公司',
      agreementParty: '深圳前海新融通科技有限公司',
      agreementFooter: '深圳前海新融通科技有限公司',
      errors: [],
    });
  });
});
