import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, shot } from './browser.ts';
import { consolePage, startServerWithStaff } from './console.ts';
import type { RunningServer } from './server.ts';

let server: RunningServer;
let browser: Browser;

const PASSWORD = 'catalog console e2e';
const OPERATOR_PHONE = '13500000081';
const OPERATOR_NAME = '产品运营';

beforeAll(async () => {
  server = await startServerWithStaff(
    [{ phone: OPERATOR_PHONE, name: OPERATOR_NAME, role: 'operator' }],
    PASSWORD,
  );
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const operatorPage = () =>
  consolePage(browser, server, { phone: OPERATOR_PHONE, name: OPERATOR_NAME, password: PASSWORD });

describe('console catalogue in Chromium', () => {
  it('the rule tester shows a product excluded by its city and age rules, with the reasons', async () => {
    const { page, context } = await operatorPage();
    await page.goto(`${server.url}/admin/rule-tester`);
    await page.getByText('样例用户资料').waitFor();
    // Chengdu, 60: 星河信用贷 serves Guangdong, Beijing and Shanghai only, ages 22–55.
    await page.getByTitle('广东省 / 深圳市').click();
    await page.locator('.ant-cascader-menu-item', { hasText: '四川省' }).click();
    await page.locator('.ant-cascader-menu-item', { hasText: '成都市' }).click();
    await page.getByRole('spinbutton', { name: '年龄' }).fill('60');
    await page.getByRole('button', { name: /开始测试/ }).click();

    const excluded = page.getByTestId('excluded-table');
    const row = excluded.locator('tr', { hasText: '星河信用贷' });
    await row.waitFor({ timeout: 15_000 });
    await expect.poll(() => row.textContent()).toContain('所在城市未开通该产品');
    expect(await row.textContent()).toContain('年龄');
    expect(await row.textContent()).toContain('星河消费金融有限公司');
    // The Chengdu lender's city rule is satisfied.
    const matched = page.getByTestId('matched-table');
    expect(await matched.locator('tbody tr').count()).toBeGreaterThan(0);
    await shot(page, 'console-rule-tester');
    await context.close();
  });

  it('issue 44.15: an endpoint the server refuses is marked on its field with the server’s reason', async () => {
    const { page, errors, context } = await operatorPage();
    await page.goto(`${server.url}/admin/partners/new`);
    await page.getByLabel('机构编码').fill('ssrf-e2e');
    await page.getByLabel('法定名称').fill('端点测试融资担保有限公司');
    await page.getByLabel('金融许可证 / 备案号').fill('测金小贷备字〔2026〕044号');
    await page.getByLabel('联系人').fill('端经理');
    await page.getByLabel('联系电话').fill('13811114444');
    const endpoint = page.getByLabel('线索推送地址');
    await endpoint.fill('https://10.0.0.5/leads');
    await page.getByRole('button', { name: /创建机构/ }).click();

    // The reason stays under the field (not only in a passing toast) until the field is changed.
    const item = page.locator('.ant-form-item', { has: page.locator('#apiEndpoint') });
    const reason = item.locator('.ant-form-item-explain-error');
    await reason.waitFor({ timeout: 15_000 });
    expect(await reason.innerText()).toBe('线索推送地址不能指向内网地址（10.0.0.5）');
    await expect.poll(() => page.locator('.ant-message-notice').count(), { timeout: 15_000 }).toBe(0);
    expect(await reason.innerText()).toBe('线索推送地址不能指向内网地址（10.0.0.5）');
    await shot(page, 'issue44-partner-endpoint-refused');

    await endpoint.fill('https://lender.example.org/leads');
    await expect.poll(() => reason.count()).toBe(0);
    // The browser logs the refused call's 400 (and nothing else).
    expect(errors.filter((e) => !e.includes('status of 400'))).toEqual([]);
    await context.close();
  });

  it('an APR above 24 % is saved as a draft setting, and publishing is refused with the reason', async () => {
    const { page, context } = await operatorPage();
    await page.goto(`${server.url}/admin/products?status=paused`);
    await page.getByRole('link', { name: '星河安居贷（暂停）' }).click();
    await page.getByText('上架状态').waitFor();
    const apr = page.getByLabel('综合年化利率（%）');
    await apr.fill('30');
    await page.getByRole('button', { name: /保存修改/ }).click();
    await page.getByText('已保存').first().waitFor();
    await expect.poll(() => page.getByText('当前不满足上架条件').count()).toBeGreaterThan(0);

    await page.getByRole('button', { name: /上\s*架/ }).click();
    const refusal = page.getByRole('alert').filter({ hasText: '不能上架' });
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('综合年化利率30.00%超过24%，不能上架');
    expect(await page.getByTestId('product-status').textContent()).toBe('已下架');
    await shot(page, 'console-publish-refused');
    await context.close();
  });
});
