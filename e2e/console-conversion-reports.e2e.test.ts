/**
 * Issues 47.3 (replay) and 47.6 in the console: a channel's 回传记录. A Tencent channel with a wrong account ID
 * (the platform — here its sandbox — refuses it for good) has a person's 注册 go dead; the console shows it with
 * the platform's answer, the operator corrects the account ID in 转化回传, replays the report with 重新回传, and
 * the row turns 已回传 once the worker sent it; the sandbox received it once. A viewer only reads.
 */
import { resolve } from 'node:path';
import type { ConversionReportsData } from '@lm/shared/schemas/conversion-reports';
import type { ChannelConversionsData } from '@lm/shared/schemas/conversions';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, SCREENSHOT_DIR, shot, unexpectedErrors } from './browser.ts';
import { consolePage, startServerWithStaff } from './console.ts';
import { apiCall, outboxCode } from './person.ts';
import type { RunningServer } from './server.ts';

let server: RunningServer;
let browser: Browser;

const PASSWORD = 'conversion reports e2e';
const ADMIN_PHONE = '13500000091';
const VIEWER_PHONE = '13500000092';
const CHANNEL = 'demo-skin14';
const GDT_VID = `wx0e2e${Date.now().toString(36)}k7q2vd`;
/** How the console shows the click: its last six characters. */
const CLICK_REF = `…${GDT_VID.slice(-6)}`;

let adminToken = '';
let channelId = 0;

beforeAll(async () => {
  server = await startServerWithStaff(
    [
      { phone: ADMIN_PHONE, name: '回传管理员', role: 'admin' },
      { phone: VIEWER_PHONE, name: '回传查看员', role: 'viewer' },
    ],
    PASSWORD,
  );
  browser = await launch();
  adminToken = (
    await apiCall<{ token: string }>(server.url, '/api/crm/admin/login', {
      body: { phone: ADMIN_PHONE, password: PASSWORD },
    })
  ).token;
  const list = await apiCall<{ list: { id: number; adChannelCode: string }[] }>(
    server.url,
    `/api/admin/channels?q=${CHANNEL}&pageSize=50`,
    { token: adminToken },
  );
  channelId = list.list.find((c) => c.adChannelCode === CHANNEL)!.id;
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The Tencent channel's settings as saved, with its account ID replaced (the access token stays). */
async function setAccountId(accountId: string) {
  const s = await apiCall<ChannelConversionsData>(
    server.url,
    `/api/admin/channels/${channelId}/conversions`,
    {
      token: adminToken,
    },
  );
  await apiCall(server.url, `/api/admin/channels/${channelId}/conversions`, {
    method: 'PUT',
    token: adminToken,
    body: {
      enabled: s.enabled,
      platform: s.platform,
      windowDays: s.windowDays,
      events: s.events,
      credentials: { accountId },
    },
  });
}

/** A person who arrived from a Tencent ad (gdt_vid) logs in: their 注册 is reported. */
async function personFromTencentAd() {
  const phone = `139${String(Date.now()).slice(-8)}`;
  await apiCall(server.url, '/api/login/sendPhoneVerifyCode', { body: { phone } });
  const res = await fetch(`${server.url}/api/login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      track_report: JSON.stringify({ platform: 'tencent', gdt_vid: GDT_VID }),
    },
    body: JSON.stringify({ phone, code: await outboxCode(server.url, phone), adChannelCode: CHANNEL }),
  });
  expect(res.status).toBe(200);
  return phone;
}

const reports = () =>
  apiCall<ConversionReportsData>(server.url, `/api/admin/channels/${channelId}/conversion-reports`, {
    token: adminToken,
  });

const signIn = (phone: string, name: string) =>
  consolePage(browser, server, { phone, name, password: PASSWORD });
const card = (page: Page) => page.getByTestId('conversion-reports');
const row = (page: Page) => card(page).locator('tbody tr', { hasText: CLICK_REF });

async function cardShot(page: Page, name: string) {
  await card(page).scrollIntoViewIfNeeded();
  await card(page).screenshot({ path: resolve(SCREENSHOT_DIR, `${name}.png`) });
}

describe('conversion reports in the console (issues 47.3, 47.6)', () => {
  it('shows a dead report with the platform’s answer; replayed after the fix, it is 已回传', async () => {
    // An account ID Tencent does not know (0): every request is refused for good.
    await setAccountId('0');
    const phone = await personFromTencentAd();
    await expect
      .poll(async () => (await reports()).list.find((r) => r.clickRef === CLICK_REF)?.status, {
        timeout: 30_000,
      })
      .toBe('dead');

    const { page, errors, context } = await signIn(ADMIN_PHONE, '回传管理员');
    await page.goto(`${server.url}/admin/channels/${channelId}`);
    await row(page).waitFor({ timeout: 15_000 });
    await expect(row(page).getByText('回传失败').count()).resolves.toBe(1);
    await expect(row(page).getByText('注册').count()).resolves.toBe(1);
    await expect(row(page).getByText('REGISTER').count()).resolves.toBe(1);
    // The platform's answer, readable: the sandbox's refusal as Tencent would give it.
    await expect(
      row(page)
        .getByText(/^HTTP 400，代码 400：account_id 须为正整数/)
        .count(),
    ).resolves.toBe(1);
    await expect(card(page).getByText('回传失败', { exact: true }).count()).resolves.toBeGreaterThan(0);
    // Nothing personal on the page: not the phone, not the whole click id.
    const html = await page.content();
    expect(html).not.toContain(phone);
    expect(html).not.toContain(GDT_VID);
    await shot(page, 'console-conversion-reports-dead');
    await cardShot(page, 'console-conversion-reports-dead-card');

    // The cause fixed in 转化回传: the right account ID.
    const settings = page.getByTestId('conversion-settings');
    await settings.getByLabel('广告主账户 ID').fill('20261205');
    await settings.getByRole('button', { name: '保存回传设置' }).click();
    await page.getByText('回传设置已保存').first().waitFor({ timeout: 15_000 });

    await row(page).getByRole('button', { name: '重新回传' }).click();
    const confirm = page.locator('.ant-popconfirm');
    await confirm.getByText('尝试次数清零').waitFor();
    await confirm.getByRole('button', { name: '重新回传' }).click();
    await page
      .getByText(/回传记录 #\d+ 已重新排队/)
      .first()
      .waitFor({ timeout: 15_000 });
    // The worker sends it; the list refreshes itself while a report waits.
    await row(page).getByText('已回传').waitFor({ timeout: 30_000 });
    await expect(row(page).getByRole('button', { name: '重新回传' }).count()).resolves.toBe(0);
    await expect(row(page).getByText('平台应答：代码 0', { exact: true }).count()).resolves.toBe(1);
    await shot(page, 'console-conversion-reports-sent');
    await cardShot(page, 'console-conversion-reports-sent-card');

    // The platform received it once, under the click, as REGISTER.
    const events = await apiCall<{ eventType: string }[]>(
      server.url,
      `/api/dev/ad-sandbox/tencent/events?clickid=${encodeURIComponent(GDT_VID)}`,
    );
    expect(events.map((e) => e.eventType)).toEqual(['REGISTER']);
    expect(unexpectedErrors(errors)).toEqual([]);
    await context.close();
  });

  it('a viewer reads the reports and cannot replay', async () => {
    const { page, errors, context } = await signIn(VIEWER_PHONE, '回传查看员');
    await page.goto(`${server.url}/admin/channels/${channelId}`);
    await row(page).waitFor({ timeout: 15_000 });
    await card(page).getByText('只读：管理员和运营可以重新回传失败的记录。').waitFor();
    await expect(card(page).getByRole('button', { name: '重新回传' }).count()).resolves.toBe(0);
    await expect(card(page).getByRole('columnheader', { name: '操作' }).count()).resolves.toBe(0);
    await cardShot(page, 'console-conversion-reports-viewer-card');
    expect(unexpectedErrors(errors)).toEqual([]);
    await context.close();
  });
});
