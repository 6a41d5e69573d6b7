/**
 * Issue 47.6 in Chromium: lender outcomes seen by people. A person consents to the lenders offered; the delivery
 * worker sends the leads; the sandbox lender of one approves and funds, another declines. The console's lender
 * page shows them in 机构反馈 (counts, amounts, latency, latest reports), the lead's drawer its history, and the
 * person's application record (375 px) 已放款 with the amount, 未通过, and 申请中 for the lenders still silent.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, phonePage, shot, unexpectedErrors } from './browser.ts';
import { consolePage, startServerWithStaff } from './console.ts';
import { apiCall, DEMO_FORM, loginPerson, type Person, signIn } from './person.ts';
import type { RunningServer } from './server.ts';

let server: RunningServer;
let browser: Browser;

const PASSWORD = 'lender outcomes e2e';
const VIEWER = { phone: '13500000091', name: '反馈查看员', role: 'viewer' as const };

interface LeadRow {
  id: number;
  partnerId: number;
  partnerName: string;
  productName: string;
  status: string;
}

let person: Person;
let staffToken: string;
/** The funded lead and the declined one. */
let funded: LeadRow;
let declined: LeadRow;

const staffApi = <T>(path: string) => apiCall<T>(server.url, path, { token: staffToken });

async function outcome(lead: LeadRow, body: object) {
  const { idempotencyKey } = await staffApi<{ idempotencyKey: string }>(`/api/admin/leads/${lead.id}`);
  const { code } = await staffApi<{ code: string }>(`/api/admin/partners/${lead.partnerId}`);
  await apiCall(server.url, `/api/dev/partner-sandbox/${code}/outcomes`, {
    body: { leadId: idempotencyKey, ...body },
  });
}

beforeAll(async () => {
  server = await startServerWithStaff([VIEWER], PASSWORD);
  browser = await launch();
  staffToken = (
    await apiCall<{ token: string }>(server.url, '/api/crm/admin/login', {
      body: { phone: VIEWER.phone, password: PASSWORD },
    })
  ).token;

  person = await loginPerson(server.url, '137');
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
  // The delivery worker sends the leads to the sandbox lenders.
  const delivered = async () =>
    (await staffApi<{ list: LeadRow[] }>(`/api/admin/leads?userId=${person.uid}&pageSize=50`)).list.filter(
      (l) => l.status === 'delivered',
    );
  // (expect.poll is for tests, not their set-up.)
  let sent: LeadRow[] = [];
  for (const until = Date.now() + 30_000; sent.length < 3; ) {
    if (Date.now() > until) throw new Error(`leads not delivered in 30 s: ${JSON.stringify(sent)}`);
    await new Promise((r) => setTimeout(r, 250));
    sent = await delivered();
  }
  [funded, declined] = sent as [LeadRow, LeadRow];
  await outcome(funded, { status: 'received' });
  await outcome(funded, { status: 'approved', limitFen: 2_000_000, rateBps: 1800 });
  await outcome(funded, { status: 'funded', amountFen: 1_500_000, termMonths: 12 });
  await outcome(declined, { status: 'declined', reason: '综合评分不足' });
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('lender outcomes seen by people (issue 47.6)', () => {
  it('the lender’s page shows 机构反馈: counts, amounts, latency and the latest reports', async () => {
    const { page, errors, context } = await consolePage(browser, server, { ...VIEWER, password: PASSWORD });
    await page.goto(`${server.url}/admin/partners/${funded.partnerId}`);
    const card = page.getByTestId('partner-outcomes');
    await card.getByText('放款金额合计').waitFor({ timeout: 15_000 });
    await card.getByText('已放款 1', { exact: true }).waitFor();
    await expect(card.locator('.ant-statistic').nth(1).innerText()).resolves.toMatch(
      /已授信（含已放款）\s*1\s*条/,
    );
    await expect(card.getByText('15,000 元', { exact: true }).count()).resolves.toBe(1);
    await expect(card.getByText('20,000 元', { exact: true }).count()).resolves.toBe(1);
    // Latency to the first report, the approval and the funding: one lead each, within minutes.
    await expect(card.getByText('（1 条线索）').count()).resolves.toBe(3);
    await expect(card.getByText(/中位数/).count()).resolves.toBe(3);
    await expect(card.getByText(/不到 1 分钟|^\d+ 分钟$/).count()).resolves.toBeGreaterThanOrEqual(6);
    // The latest reports, newest first: funded, approved, received.
    const rows = card.locator('.ant-table-tbody .ant-table-row');
    await expect(rows.count()).resolves.toBe(3);
    await expect(rows.nth(0).innerText()).resolves.toContain('放款 15,000 元 · 12 期');
    await expect(rows.nth(1).innerText()).resolves.toContain('额度 20,000 元 · 年化 18.00%');
    await expect(rows.nth(2).innerText()).resolves.toContain('申请中（已受理）');
    await card.scrollIntoViewIfNeeded();
    await shot(page, 'console-partner-outcomes');

    // From a report to the lead: its drawer shows the outcome and the lender's reports.
    await rows.nth(0).getByRole('link').click();
    const drawer = page.locator('.ant-drawer-content');
    await drawer.getByText('机构反馈记录').waitFor({ timeout: 15_000 });
    await expect(drawer.getByText('已放款', { exact: true }).count()).resolves.toBeGreaterThanOrEqual(2);
    await expect(drawer.getByText('放款 15,000 元 · 12 期').count()).resolves.toBe(1);
    await shot(page, 'console-lead-outcomes');
    expect(unexpectedErrors(errors)).toEqual([]);
    await context.close();
  });

  it('the person’s application record shows 已放款 with the amount, 未通过 and 申请中 at 375 px', async () => {
    const { page, errors, context } = await phonePage(browser);
    await signIn(context, person);
    await page.goto(`${server.url}/my/application-record`);
    const record = page.getByRole('region', { name: '申请记录' });
    await record.getByText('放款 15,000 元').waitFor({ timeout: 15_000 });
    // The innermost block with the product's name and its lender line: the offer.
    const offerOf = (productName: string) =>
      record
        .locator('div')
        .filter({ has: page.getByText(productName, { exact: true }) })
        .filter({ hasText: '放款机构' })
        .last();
    await expect(offerOf(funded.productName).innerText()).resolves.toMatch(
      /机构审批\s*已放款\s*放款 15,000 元/,
    );
    await expect(offerOf(declined.productName).innerText()).resolves.toMatch(/机构审批\s*未通过/);
    // The other lenders got the data and said nothing yet.
    await expect(record.getByText('申请中', { exact: true }).count()).resolves.toBeGreaterThanOrEqual(1);
    // The page keeps its width: nothing wider than the phone.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(page, 'h5-application-record-outcomes');
    expect(unexpectedErrors(errors)).toEqual([]);
    await context.close();
  });
});
