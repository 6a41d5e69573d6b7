/**
 * Issue 48.2 in the console: an admin sets a 渠道成本 on a channel (CPC from today) on the channel's page, then
 * imports an ad platform's daily spend report on 消耗导入 — the preview shows each row, the bad one highlighted
 * with its reason; 导入 books the accepted rows; the list of imports shows the file.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addDays, shanghaiDate } from '@lm/shared/time';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, SCREENSHOT_DIR, shot, unexpectedErrors } from './browser.ts';
import { consolePage, startServerWithStaff } from './console.ts';
import { apiCall } from './person.ts';
import type { RunningServer } from './server.ts';

let server: RunningServer;
let browser: Browser;

const PASSWORD = 'spend console e2e';
const ADMIN_PHONE = '13500000093';

beforeAll(async () => {
  server = await startServerWithStaff([{ phone: ADMIN_PHONE, name: '成本管理员', role: 'admin' }], PASSWORD);
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('channel costs and spend imports in the console (issue 48.2)', () => {
  it('an admin sets CPC on a channel, then imports a spend CSV with one bad row', async () => {
    const login = await apiCall<{ token: string }>(server.url, '/api/crm/admin/login', {
      body: { phone: ADMIN_PHONE, password: PASSWORD },
    });
    const channels = await apiCall<{ list: { id: number; adChannelCode: string }[] }>(
      server.url,
      '/api/admin/channels?pageSize=50',
      { token: login.token },
    );
    const demo = channels.list.find((c) => c.adChannelCode === 'demo')!;
    const today = shanghaiDate();
    const yesterday = addDays(today, -1);

    const { page, errors, context } = await consolePage(browser, server, {
      phone: ADMIN_PHONE,
      name: '成本管理员',
      password: PASSWORD,
    });
    // 渠道成本 on the channel's page: CPC 0.50 元 a click from today.
    await page.goto(`${server.url}/admin/channels/${demo.id}`);
    const card = page.getByTestId('channel-costs');
    await card.getByText('尚未设置渠道成本').waitFor({ timeout: 15_000 });
    await card.getByLabel('每次点击').fill('0.50');
    await card.getByRole('button', { name: '保存渠道成本' }).click();
    await card.getByText('0.50 元 / 次点击').first().waitFor({ timeout: 10_000 });
    const inForce = await card.getByRole('region', { name: '今日生效的渠道成本' }).innerText();
    expect(inForce).toContain('按点击 CPC · 0.50 元 / 次点击');
    expect(inForce).toContain(`自 ${today} 起生效`);
    await card.scrollIntoViewIfNeeded();
    await shot(page, 'console-channel-costs');
    await card.screenshot({ path: join(SCREENSHOT_DIR, 'console-channel-costs-card.png') });

    // 消耗导入: yesterday's spend of the channel (no cost row then: taken) and a row of an unknown channel.
    const dir = mkdtempSync(join(tmpdir(), 'lm-spend-'));
    const file = join(dir, '巨量引擎日报.csv');
    writeFileSync(
      file,
      `\uFEFF${['日期,渠道编码,消耗（元）', `${yesterday},demo,"1,234.56"`, `${yesterday},no-such-channel,88`].join('\r\n')}\r\n`,
    );
    await page.getByRole('menuitem', { name: '消耗导入' }).click();
    await page.waitForURL(/\/admin\/spend-imports$/);
    await page.getByText('尚无导入记录').waitFor({ timeout: 15_000 });
    await page.locator('input[type=file]').setInputFiles(file);
    const preview = page.getByTestId('spend-preview');
    await preview.waitFor({ timeout: 15_000 });
    const rejected = preview.locator('.ant-table-row', { hasText: 'no-such-channel' });
    await expect(rejected.innerText()).resolves.toContain('渠道编码「no-such-channel」不存在');
    await expect(rejected.getAttribute('style')).resolves.toContain('background');
    const ok = preview.locator('.ant-table-row', { hasText: 'demo' });
    await expect(ok.innerText()).resolves.toMatch(/1,234\.56 元[\s\S]*\+1,234\.56 元[\s\S]*可导入/);
    await shot(page, 'console-spend-preview');

    await page.getByRole('button', { name: /^导\s*入$/ }).click();
    const result = page.getByTestId('spend-import-result');
    await result.waitFor({ timeout: 15_000 });
    await expect(result.innerText()).resolves.toContain(
      '已导入 1 行、跳过 1 行；记账 1 笔，合计 +1,234.56 元',
    );
    const list = page.getByTestId('spend-imports-list');
    const row = list.locator('.ant-table-row', { hasText: '巨量引擎日报.csv' });
    await row.waitFor({ timeout: 10_000 });
    await expect(row.innerText()).resolves.toMatch(/成本管理员[\s\S]*2[\s\S]*1[\s\S]*1[\s\S]*1,234\.56 元/);
    await shot(page, 'console-spend-imported');

    // The same file again: the preview says it was imported (the server would book nothing: repeated).
    await page.locator('input[type=file]').setInputFiles(file);
    await page
      .getByText(/该文件已于 .* 导入（巨量引擎日报\.csv），无需再次导入/)
      .waitFor({ timeout: 15_000 });
    await expect(page.getByRole('button', { name: /^导\s*入$/ }).isDisabled()).resolves.toBe(true);
    await shot(page, 'console-spend-again');
    await expect(list.locator('.ant-table-row').count()).resolves.toBe(1);
    expect(unexpectedErrors(errors)).toEqual([]);
    await context.close();
  });
});
