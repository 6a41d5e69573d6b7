/**
 * Issue 47.2 in the console: a channel's conversion reporting — the demo channel's Ocean Engine map as
 * seeded, a Tencent channel's credentials changed without ever showing the stored secret, a refusal in words
 * when the landing does not capture the platform's click, and a viewer who can only read.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, shot, unexpectedErrors } from './browser.ts';
import { consolePage, startServerWithStaff } from './console.ts';
import type { RunningServer } from './server.ts';

let server: RunningServer;
let browser: Browser;

const PASSWORD = 'conversions console e2e';
const ADMIN_PHONE = '13500000081';
const VIEWER_PHONE = '13500000082';

beforeAll(async () => {
  server = await startServerWithStaff(
    [
      { phone: ADMIN_PHONE, name: '回传管理员', role: 'admin' },
      { phone: VIEWER_PHONE, name: '回传查看员', role: 'viewer' },
    ],
    PASSWORD,
  );
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const signIn = (phone: string, name: string) =>
  consolePage(browser, server, { phone, name, password: PASSWORD });

async function channelId(code: string): Promise<number> {
  const res = await fetch(`${server.url}/api/crm/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ phone: ADMIN_PHONE, password: PASSWORD }),
  });
  const token = ((await res.json()) as { data: { token: string } }).data.token;
  const list = await fetch(`${server.url}/api/admin/channels?q=${encodeURIComponent(code)}&pageSize=50`, {
    headers: { accesstoken: token },
  });
  const data = ((await list.json()) as { data: { list: { id: number; adChannelCode: string }[] } }).data;
  return data.list.find((c) => c.adChannelCode === code)!.id;
}

const card = (page: Page) => page.getByTestId('conversion-settings');

describe('conversion reporting in the console (issue 47.2)', () => {
  it('shows the demo channel’s Ocean Engine map as seeded', async () => {
    const { page, errors, context } = await signIn(ADMIN_PHONE, '回传管理员');
    await page.goto(`${server.url}/admin/channels/${await channelId('demo')}`);
    const c = card(page);
    await c.getByText('注册', { exact: true }).waitFor({ timeout: 15_000 });
    await expect(c.getByRole('switch', { name: '开启转化回传' }).getAttribute('aria-checked')).resolves.toBe(
      'true',
    );
    await expect(c.getByLabel('注册的事件编码').inputValue()).resolves.toBe('active_register');
    await expect(c.getByLabel('授信的事件编码').inputValue()).resolves.toBe('loan_credit');
    await expect(c.getByLabel('放款的事件编码').inputValue()).resolves.toBe('loan');
    await expect(c.getByText('不需要账户凭据').count()).resolves.toBe(1);
    await c.scrollIntoViewIfNeeded();
    await shot(page, 'console-conversions-demo');
    expect(unexpectedErrors(errors)).toEqual([]);
    await context.close();
  });

  it('changes a Tencent channel’s token without showing the stored one; refuses to switch on without the capture', async () => {
    const { page, errors, context } = await signIn(ADMIN_PHONE, '回传管理员');
    await page.goto(`${server.url}/admin/channels/${await channelId('demo-skin14')}`);
    const c = card(page);
    await c.getByLabel('access_token').waitFor({ timeout: 15_000 });
    await expect(c.getByLabel('access_token').inputValue()).resolves.toBe('');
    await expect(c.getByText(/已设置（\*\*\*\*oken），留空则不修改/).count()).resolves.toBe(1);
    await expect(c.getByLabel('广告主账户 ID').inputValue()).resolves.toBe('20261205');
    expect(await page.content()).not.toContain('demo-tencent-access-token');

    await c.getByLabel('access_token').fill('e2e-new-tencent-token-9876');
    await c.getByLabel('归因窗口（天）').fill('14');
    await c.getByRole('button', { name: '保存回传设置' }).click();
    await page.getByText('回传设置已保存').first().waitFor({ timeout: 15_000 });
    await c.getByText(/已设置（\*\*\*\*9876）/).waitFor({ timeout: 15_000 });
    await expect(c.getByLabel('归因窗口（天）').inputValue()).resolves.toBe('14');

    // A bad code is answered at the field before anything is sent.
    await c.getByLabel('注册的事件编码').fill('register now');
    await c.getByRole('button', { name: '保存回传设置' }).click();
    await c.getByText(/格式不对：大写字母、数字和下划线/).waitFor({ timeout: 10_000 });
    await c.getByLabel('注册的事件编码').fill('REGISTER');

    // Another platform than the landing captures: the server refuses in words, the form keeps what was typed.
    await c.getByRole('combobox', { name: '回传广告平台' }).click({ force: true });
    await page.locator('.ant-select-item-option', { hasText: '百度营销（baidu）' }).click();
    await c.getByLabel('表单提交的事件编码').waitFor();
    await expect(c.getByLabel('表单提交的事件编码').inputValue()).resolves.toBe('3');
    await c.getByLabel('百度 token').fill('e2e-baidu-token-1');
    await c.getByRole('button', { name: '保存回传设置' }).click();
    await c.getByText(/无法开启回传：渠道采集的是 tencent 的参数/).waitFor({ timeout: 15_000 });
    await expect(c.getByLabel('百度 token').inputValue()).resolves.toBe('e2e-baidu-token-1');
    await shot(page, 'console-conversions-refused');
    // The one refusal provoked (the browser logs a 400 as a failed resource), nothing else.
    expect(unexpectedErrors(errors)).toEqual([
      'Failed to load resource: the server responded with a status of 400 (Bad Request)',
    ]);
    await context.close();
  });

  it('a viewer reads the settings and cannot change them; no preview request is refused', async () => {
    const { page, errors, context } = await signIn(VIEWER_PHONE, '回传查看员');
    await page.goto(`${server.url}/admin/channels/${await channelId('demo-location')}`);
    const c = card(page);
    await c.getByText('只读：管理员和运营可以修改。').waitFor({ timeout: 15_000 });
    await expect(c.getByRole('button', { name: '保存回传设置' }).count()).resolves.toBe(0);
    await expect(c.getByLabel('百度 token').isDisabled()).resolves.toBe(true);
    await expect(c.getByText(/已设置（\*\*\*\*oken）/).count()).resolves.toBe(1);
    // No preview token is asked for a viewer (it would be refused): a note instead, and no 403 in the log.
    await page.getByText('只读账号不生成预览').waitFor();
    expect(unexpectedErrors(errors)).toEqual([]);
    await context.close();
  });
});
