/**
 * 隐私政策 第六条 in the console: on a person's page an operator stops their conversion reporting after a
 * confirm that explains the consequence (the page then reads 已停止回传（time，依本人要求）) and resumes it; a viewer
 * sees the state without the button.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, shot, unexpectedErrors } from './browser.ts';
import { consolePage, startServerWithStaff } from './console.ts';
import type { RunningServer } from './server.ts';

let server: RunningServer;
let browser: Browser;

const PASSWORD = 'ad reporting console e2e';
const OPERATOR_PHONE = '13500000091';
const VIEWER_PHONE = '13500000092';

beforeAll(async () => {
  server = await startServerWithStaff(
    [
      { phone: OPERATOR_PHONE, name: '回传运营', role: 'operator' },
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

async function api<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const out = (await res.json()) as { code: number; msg: string; data: T };
  if (out.code !== 200) throw new Error(`${path}: ${out.code} ${out.msg}`);
  return out.data;
}

/** A person who logged in from the demo channel; their id. */
async function person(): Promise<number> {
  const phone = `137${String(Date.now()).slice(-8)}`;
  await api('/api/login/sendPhoneVerifyCode', { phone });
  const res = await fetch(`${server.url}/api/dev/sms-outbox?phone=${phone}`);
  const [sms] = ((await res.json()) as { data: { code: string }[] }).data;
  const login = await api<{ loginUser: { uid: number } }>('/api/login', {
    mobile: phone,
    code: sms!.code,
    adChannelCode: 'demo',
  });
  return login.loginUser.uid;
}

describe('广告效果回传 on the person’s page', () => {
  it('an operator stops and resumes it after a confirm; a viewer only reads it', async () => {
    const uid = await person();
    const { page, errors, context } = await consolePage(browser, server, {
      phone: OPERATOR_PHONE,
      name: '回传运营',
      password: PASSWORD,
    });
    await page.goto(`${server.url}/admin/leads/${uid}`);
    await page.getByText('正常回传', { exact: true }).waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: '停止回传' }).click();
    await page.getByText('停止广告效果回传？').waitFor();
    expect(await page.locator('.ant-popconfirm').innerText()).toContain('今后不再就此人的行为向广告平台回传');
    await shot(page, 'console-ad-reporting-confirm');
    await page.locator('.ant-popconfirm').getByRole('button', { name: '停止回传' }).click();
    await page.getByText(/已停止回传（.+，依本人要求）/).waitFor({ timeout: 10_000 });
    await expect.poll(() => page.getByRole('button', { name: '恢复回传' }).count()).toBe(1);
    await page.mouse.move(0, 0);
    await page.locator('.ant-popconfirm').waitFor({ state: 'hidden' });
    await page.locator('.ant-message-notice').waitFor({ state: 'detached', timeout: 10_000 });
    await shot(page, 'console-ad-reporting-stopped');
    expect(unexpectedErrors(errors)).toEqual([]);

    // A viewer sees the state, not the button.
    const viewer = await consolePage(browser, server, {
      phone: VIEWER_PHONE,
      name: '回传查看员',
      password: PASSWORD,
    });
    await viewer.page.goto(`${server.url}/admin/leads/${uid}`);
    await viewer.page.getByText(/已停止回传（.+，依本人要求）/).waitFor({ timeout: 15_000 });
    expect(await viewer.page.getByRole('button', { name: /回传/ }).count()).toBe(0);
    await viewer.context.close();

    // Resumed: 正常回传 again.
    await page.getByRole('button', { name: '恢复回传' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: '恢复回传' }).click();
    await page.getByText('正常回传', { exact: true }).waitFor({ timeout: 10_000 });
    expect(unexpectedErrors(errors)).toEqual([]);
    await context.close();
  });
});
