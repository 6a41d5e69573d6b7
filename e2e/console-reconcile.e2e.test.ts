/**
 * Issue 47.4 in the console: an operator reconciles a lender's outcomes on the lender's page — picks the
 * lender's CSV (read in the browser), sees the totals and each disagreement in words (an amount that differs,
 * an unknown lead, another lender's lead, a bad row, a lead of ours the file leaves out); a file without its
 * header is refused in words beside the paste area; a viewer gets no 对账 card.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, shot, unexpectedErrors } from './browser.ts';
import { consolePage, startServerWithStaff } from './console.ts';
import { apiCall, DEMO_FORM, loginPerson } from './person.ts';
import type { RunningServer } from './server.ts';

let server: RunningServer;
let browser: Browser;

const PASSWORD = 'reconcile console e2e';
const OPERATOR_PHONE = '13500000091';
const VIEWER_PHONE = '13500000092';

beforeAll(async () => {
  server = await startServerWithStaff(
    [
      { phone: OPERATOR_PHONE, name: '对账运营', role: 'operator' },
      { phone: VIEWER_PHONE, name: '对账查看员', role: 'viewer' },
    ],
    PASSWORD,
  );
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Three people consent to the lenders offered; answers every lead the sandbox lenders received. */
async function deliveredLeads() {
  for (let i = 0; i < 3; i++) {
    const person = await loginPerson(server.url, `13${6 + i}`);
    const match = await apiCall<{ id: string | null; mayAuthProductList: { id: string }[] }>(
      server.url,
      '/api/user/info/save',
      { token: person.token, body: DEMO_FORM },
    );
    const productIds = [...(match.id ? [match.id] : []), ...match.mayAuthProductList.map((p) => p.id)];
    await apiCall(server.url, '/api/user/info/auth', {
      method: 'PUT',
      token: person.token,
      body: { productIds },
    });
  }
  const received = async () => {
    const all: { code: string; leadId: string }[] = [];
    for (const letter of 'abcdefgh') {
      const code = `partner-${letter}`;
      const list = await apiCall<{ leadId: string }[]>(server.url, `/api/dev/partner-sandbox/${code}/leads`);
      all.push(...list.map((l) => ({ code, leadId: l.leadId })));
    }
    return all;
  };
  let all: { code: string; leadId: string }[] = [];
  await expect
    .poll(
      async () => {
        all = await received();
        const byCode = new Map<string, number>();
        for (const l of all) byCode.set(l.code, (byCode.get(l.code) ?? 0) + 1);
        // One lender with three leads, and a lead of another lender (delivered in the worker's own time).
        return Math.max(0, ...byCode.values()) >= 3 && byCode.size >= 2;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  return all;
}

async function staffToken(phone: string) {
  const login = await apiCall<{ token: string }>(server.url, '/api/crm/admin/login', {
    body: { phone, password: PASSWORD },
  });
  return login.token;
}

describe('reconciliation in the console (issue 47.4)', () => {
  it('an operator picks the lender’s file and reads each disagreement in words', async () => {
    const all = await deliveredLeads();
    const counts = new Map<string, number>();
    for (const l of all) counts.set(l.code, (counts.get(l.code) ?? 0) + 1);
    const code = [...counts.entries()].find(([, n]) => n >= 3)![0];
    const [a, b, c] = all.filter((l) => l.code === code);
    const other = all.find((l) => l.code !== code)!;
    const report = (leadId: string, body: object) =>
      apiCall(server.url, `/api/dev/partner-sandbox/${code}/outcomes`, { body: { leadId, ...body } });
    await report(a!.leadId, { status: 'approved', limitFen: 2_000_000 });
    await report(b!.leadId, { status: 'funded', amountFen: 1_234_567, termMonths: 12 });
    await report(c!.leadId, { status: 'declined', reason: '资质不符' });

    const token = await staffToken(OPERATOR_PHONE);
    const partners = await apiCall<{ list: { id: number; code: string }[] }>(
      server.url,
      `/api/admin/partners?q=${code}&pageSize=50`,
      { token },
    );
    const partnerId = partners.list.find((p) => p.code === code)!.id;

    const dir = mkdtempSync(join(tmpdir(), 'lm-reconcile-'));
    const file = join(dir, `${code}-对账.csv`);
    writeFileSync(
      file,
      `\uFEFF${[
        '线索编号,状态,金额（元）,发生时间',
        `${a!.leadId},已授信,"20,000.00",2026-03-01 10:00`,
        `${b!.leadId},已放款,12345.00,2026-03-02 15:30`,
        'NO-SUCH-LEAD-0001,申请中,,',
        `${other.leadId},approved,5000,`,
        ',已放款,1,',
      ].join('\r\n')}\r\n`,
    );

    const { page, errors, context } = await consolePage(browser, server, {
      phone: OPERATOR_PHONE,
      name: '对账运营',
      password: PASSWORD,
    });
    await page.goto(`${server.url}/admin/partners/${partnerId}`);
    const card = page.locator('.ant-card', { has: page.getByText('对账', { exact: true }) });
    await card.getByRole('button', { name: '选择 CSV 文件' }).waitFor({ timeout: 15_000 });
    await card.locator('input[type=file]').setInputFiles(file);
    await card.getByText(`已读取 ${code}-对账.csv：5 行数据`).waitFor();
    await card.getByRole('button', { name: '开始对账' }).click();
    const result = page.getByTestId('reconcile-result');
    await result.waitFor({ timeout: 15_000 });

    const stat = (title: string) =>
      result
        .locator('.ant-statistic')
        .filter({ has: page.locator('.ant-statistic-title').getByText(title, { exact: true }) })
        .locator('.ant-statistic-content-value')
        .innerText();
    await expect(stat('读取行数')).resolves.toBe('5');
    await expect(stat('一致')).resolves.toBe('1');
    await expect(stat('不一致')).resolves.toBe('5');
    const text = await result.innerText();
    expect(text).toContain('放款金额：机构为 12,345.00 元，我方为 12,345.67 元');
    expect(text).toContain('我方没有推送给该机构的线索 NO-SUCH-LEAD-0001');
    expect(text).toContain(`我方没有推送给该机构的线索 ${other.leadId}`);
    expect(text).toContain('第 6 行无法读取：缺少线索编号 leadId');
    expect(text).toMatch(
      /我方记录为「已拒绝」（\d{4}-\d{2}-\d{2} \d{2}:\d{2} 推送），机构文件中没有这条线索/,
    );
    expect(text).toContain('未知线索 2');
    expect(text).toContain('文件中缺少 1');
    await card.scrollIntoViewIfNeeded();
    await shot(page, 'console-reconcile');

    // Only the unknown leads, by their tag.
    await result.getByText('未知线索 2').click();
    await expect.poll(() => result.locator('.ant-table-row').count()).toBe(2);

    // A pasted text without its header: refused in words beside the paste area.
    await card.getByRole('button', { name: '清除' }).click();
    await card.getByLabel('粘贴 CSV 内容').fill(`${a!.leadId},已授信\n`);
    await card.getByRole('button', { name: '开始对账' }).click();
    await card
      .getByText(/对账文件无法读取：第一行须为表头，缺少 leadId（线索编号）、status（状态）/)
      .waitFor();
    await shot(page, 'console-reconcile-refused');
    // The one refusal provoked (the browser logs a 400 as a failed resource), nothing else.
    expect(unexpectedErrors(errors)).toEqual([
      'Failed to load resource: the server responded with a status of 400 (Bad Request)',
    ]);
    await context.close();

    // A viewer reads the lender and gets no 对账 card (reconciling is for administrators and operators).
    const viewer = await consolePage(browser, server, {
      phone: VIEWER_PHONE,
      name: '对账查看员',
      password: PASSWORD,
    });
    await viewer.page.goto(`${server.url}/admin/partners/${partnerId}`);
    await viewer.page.getByText('签名密钥').first().waitFor({ timeout: 15_000 });
    await expect(viewer.page.getByRole('button', { name: '开始对账' }).count()).resolves.toBe(0);
    expect(unexpectedErrors(viewer.errors)).toEqual([]);
    await viewer.context.close();
  });
});
