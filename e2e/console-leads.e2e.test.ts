/**
 * Issue 7 part 3 in Chromium: a person logs in, saves the form and consents (through the API); an
 * operator finds them in the console by their full phone, opens the detail (everything masked),
 * reveals the real name with a reason and sees it for this page view only; the audit log page then
 * shows the reveal, who made it and why — without the name.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, phonePage, shot } from './browser.ts';
import { DEMO_FORM } from './person.ts';
import { newDataDir, type RunningServer, runCli, startServer } from './server.ts';

let server: RunningServer;
let browser: Browser;
const dataDir = newDataDir();
const STAFF_PHONE = '13500000031';
const STAFF_PASSWORD = 'correct horse battery';

interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

async function api<T>(path: string, init: { method?: string; body?: unknown; token?: string } = {}) {
  const res = await fetch(`${server.url}${path}`, {
    method: init.method ?? (init.body ? 'POST' : 'GET'),
    headers: {
      ...(init.body ? { 'content-type': 'application/json' } : {}),
      ...(init.token ? { accessToken: init.token } : {}),
    },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  const body = (await res.json()) as Envelope<T>;
  if (body.code !== 200) throw new Error(`${path}: ${body.code} ${body.msg}`);
  return body.data;
}

beforeAll(async () => {
  // The embedded database belongs to one process: create the operator before the server starts.
  await runCli(
    [
      'apps/server/src/cli/admin-create.ts',
      '--phone',
      STAFF_PHONE,
      '--name',
      '运营小李',
      '--role',
      'operator',
      '--password',
      STAFF_PASSWORD,
    ],
    { DATA_DIR: dataDir },
  );
  server = await startServer({ DELIVERY_WORKER: 'off' }, dataDir);
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('console: people, reveal with a reason, audit log', () => {
  it('an operator finds a person by phone, reveals the name with a reason, and the audit log shows it', async () => {
    // A person's journey: log in, save the application form, consent to the lenders offered.
    const phone = `137${String(Date.now()).slice(-8)}`;
    await api('/api/login/sendPhoneVerifyCode', { body: { phone } });
    const [sms] = await api<{ code: string }[]>(`/api/dev/sms-outbox?phone=${phone}`);
    const login = await api<{ token: string; loginUser: { uid: number } }>('/api/login', {
      body: { mobile: phone, code: sms!.code, adChannelCode: 'demo', abTestType: 17 },
    });
    const match = await api<{ id: string | null; mayAuthProductList: { id: string }[] }>(
      '/api/user/info/save',
      {
        token: login.token,
        body: { ...DEMO_FORM, realName: '王小明' },
      },
    );
    const productIds = [...(match.id ? [match.id] : []), ...match.mayAuthProductList.map((p) => p.id)];
    expect(productIds.length).toBeGreaterThan(0);
    await api('/api/user/info/auth', { method: 'PUT', token: login.token, body: { productIds } });

    const { page, errors, context } = await phonePage(browser);
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(`${server.url}/admin/login`);
    await page.getByText('密码登录').first().waitFor();
    await page
      .getByPlaceholder(/手机号/)
      .first()
      .fill(STAFF_PHONE);
    await page.getByPlaceholder(/密码/).first().fill(STAFF_PASSWORD);
    await page
      .getByRole('button', { name: /登\s*录/ })
      .first()
      .click();
    await page.getByText('运营小李').first().waitFor({ timeout: 15_000 });

    // Find the person by the full phone: one row, the phone masked.
    await page.goto(`${server.url}/admin/leads`);
    const masked = `${phone.slice(0, 3)}****${phone.slice(7)}`;
    const search = page.getByPlaceholder('完整手机号');
    await search.fill(phone);
    await search.press('Enter');
    await expect.poll(() => page.getByText('共 1 人').count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => page.getByRole('link', { name: masked }).count()).toBe(1);
    expect(await page.locator('.ant-table-tbody').innerText()).not.toContain(phone);
    await shot(page, 'console-leads-search');

    // The detail: name and ID masked, the journey with the consents and leads.
    await page.getByRole('link', { name: masked }).click();
    await page.waitForURL(new RegExp(`/admin/leads/${login.loginUser.uid}$`));
    await page.getByText('王**').first().waitFor({ timeout: 10_000 });
    await page.getByText('1101**********4514').first().waitFor();
    await expect.poll(() => page.getByText(/线索 #\d+/).count()).toBeGreaterThan(0);
    expect(await page.locator('body').innerText()).not.toContain('王小明');

    // Reveal the name: a reason is required, then the value shows on this page view.
    await page.getByRole('button', { name: '查看真实姓名' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: /确认查看/ }).click();
    await dialog.getByText('请填写查看原因').first().waitFor();
    await dialog.getByPlaceholder(/例如/).fill('用户来电投诉，核实身份（工单 #2048）');
    await dialog.getByRole('button', { name: /确认查看/ }).click();
    await page.getByText('王小明').first().waitFor({ timeout: 10_000 });
    await page.getByText('明文 · 仅本次页面可见').first().waitFor();
    await shot(page, 'console-leads-revealed');

    // Only for this page view: after a reload the name is masked again.
    await page.reload();
    await page.getByText('王**').first().waitFor({ timeout: 10_000 });
    expect(await page.locator('body').innerText()).not.toContain('王小明');

    // The audit log shows the reveal, by whom and why — not the name.
    await page.goto(`${server.url}/admin/audit-log`);
    const row = page.locator('.ant-table-row').filter({ hasText: '查看明文' }).first();
    await row.waitFor({ timeout: 10_000 });
    const text = await row.innerText();
    expect(text).toContain('运营小李');
    expect(text).toContain(`用户 #${login.loginUser.uid}`);
    expect(text).toContain('用户来电投诉，核实身份（工单 #2048）');
    expect(text).toContain('查看字段：真实姓名');
    expect(await page.locator('body').innerText()).not.toContain('王小明');
    await row.locator('.ant-table-row-expand-icon').click();
    await page.getByText('修改后').first().waitFor();
    await shot(page, 'console-audit-log');

    // The delivery queues: the person's consented leads wait for the worker (off in this run).
    await page.goto(`${server.url}/admin/deliveries`);
    await page.getByText('各机构发送队列').waitFor();
    await expect
      .poll(() => page.getByText('没有死信，全部线索都在正常发送').count(), { timeout: 10_000 })
      .toBe(1);
    await shot(page, 'console-deliveries');

    expect(errors).toEqual([]);
    await context.close();
  });
});
