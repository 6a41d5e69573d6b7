/**
 * Issue 48.5 in the console: an admin sets a CPL price, a person applies and consents, the delivered leads
 * show at that price on the lender's statement of the month (结算对账); the printable statement opens and
 * prints without the console's menu; the admin closes last month; a channel-partner account sees its own
 * channel's statement only — no lender.
 */
import { shanghaiMonthOf } from '@lm/shared/money';
import type { StatementsData } from '@lm/shared/schemas/settlement';
import { shanghaiDate } from '@lm/shared/time';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, shot, unexpectedErrors } from './browser.ts';
import { consolePage } from './console.ts';
import { apiCall, DEMO_FORM, loginPerson } from './person.ts';
import { type RunningServer, runCli, startServer } from './server.ts';

let server: RunningServer;
let browser: Browser;

const PASSWORD = 'settlement console e2e';
const ADMIN = { phone: '13500000081', name: '结算管理员', role: 'admin' };
const PARTNER = { phone: '13500000082', name: '渠道结算方', role: 'channel_partner', channels: 'demo' };
const current = shanghaiMonthOf(new Date());
const [cy, cm] = current.split('-').map(Number) as [number, number];
const past = cm === 1 ? `${cy - 1}-12` : `${cy}-${String(cm - 1).padStart(2, '0')}`;

beforeAll(async () => {
  const first = await startServer();
  expect(await first.stop()).toBe(0);
  for (const s of [ADMIN, PARTNER] as { phone: string; name: string; role: string; channels?: string }[]) {
    await runCli(
      [
        'apps/server/src/cli/admin-create.ts',
        '--phone',
        s.phone,
        '--name',
        s.name,
        '--role',
        s.role,
        '--password',
        PASSWORD,
        ...(s.channels ? ['--channels', s.channels] : []),
      ],
      { DATA_DIR: first.dataDir },
    );
  }
  server = await startServer({}, first.dataDir);
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function staffToken(phone: string) {
  const login = await apiCall<{ token: string }>(server.url, '/api/crm/admin/login', {
    body: { phone, password: PASSWORD },
  });
  return login.token;
}

describe('statements and the month close in the console (issue 48.5)', () => {
  it('an admin reads a lender’s booked leads, prints its statement and closes last month; a channel partner sees its channel only', async () => {
    const token = await staffToken(ADMIN.phone);
    // A CPL price of 35 元 from today on every product.
    const products = await apiCall<{ list: { id: number }[] }>(
      server.url,
      '/api/admin/products?pageSize=100',
      {
        token,
      },
    );
    for (const p of products.list)
      await apiCall(server.url, `/api/admin/products/${p.id}/prices`, {
        token,
        body: { model: 'cpl', amountFen: 3_500, effectiveFrom: shanghaiDate() },
      });
    // A person on the demo channel applies and consents to every lender offered.
    const person = await loginPerson(server.url, '137');
    const match = await apiCall<{ id: string | null; mayAuthProductList: { id: string }[] }>(
      server.url,
      '/api/user/info/save',
      { token: person.token, body: DEMO_FORM },
    );
    const productIds = [...(match.id ? [match.id] : []), ...match.mayAuthProductList.map((p) => p.id)];
    expect(productIds.length).toBeGreaterThan(0);
    await apiCall(server.url, '/api/user/info/auth', {
      method: 'PUT',
      token: person.token,
      body: { productIds },
    });
    // The delivery worker delivers and books them.
    let booked: StatementsData['statements'] = [];
    await expect
      .poll(
        async () => {
          const data = await apiCall<StatementsData>(
            server.url,
            `/api/admin/settlement/statements?month=${current}`,
            { token },
          );
          booked = data.statements.filter((s) => s.party.type === 'lender' && (s.revenueFen ?? 0) > 0);
          return booked.length;
        },
        { timeout: 45_000 },
      )
      .toBeGreaterThan(0);
    const lender = booked[0]!;

    const { page, errors } = await consolePage(browser, server, {
      phone: ADMIN.phone,
      name: ADMIN.name,
      password: PASSWORD,
    });
    await page.getByRole('menuitem', { name: '结算对账' }).click();
    await page.getByRole('heading', { name: '结算对账' }).waitFor();
    // The page opens on last month; this month has the leads.
    await page.goto(`${server.url}/admin/settlement?month=${current}`);
    const lenders = page.getByRole('table').first();
    const row = page.locator('tr', { has: page.getByRole('link', { name: lender.party.name }) }).first();
    await row.waitFor({ timeout: 15_000 });
    await expect.poll(() => row.textContent()).toContain(`${(lender.revenueFen! / 100).toFixed(2)} 元`);
    await page.getByText('未关账').first().waitFor();
    expect(await lenders.isVisible()).toBe(true);
    await shot(page, 'settlement-admin-month');

    // The printable statement: the issuer, the party, the month, the entries at 35.00 元.
    await row.getByRole('link', { name: /查看/ }).click();
    const sheet = page.getByRole('article', { name: '对账单' });
    await sheet.waitFor({ timeout: 15_000 });
    await sheet.getByText(`机构对账单 · ${current}`).waitFor();
    await sheet.getByText(lender.party.name, { exact: true }).waitFor();
    expect(await sheet.getByText('35.00 元').count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: /打\s*印/ }).waitFor();
    await shot(page, 'settlement-statement-screen');
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('.ant-layout-sider').isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: /打\s*印/ }).isVisible()).toBe(false);
    await shot(page, 'settlement-statement-print');
    await page.emulateMedia({ media: 'screen' });

    // Last month: closed after a confirmation that says what it means.
    await page.goto(`${server.url}/admin/settlement?month=${past}`);
    await page.getByRole('button', { name: /^关\s*账$/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/对账单冻结/).waitFor();
    await dialog.getByRole('button', { name: '确认关账' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText(`${past} 已关账`).first().waitFor({ timeout: 15_000 });
    expect(await page.getByRole('button', { name: /^关\s*账$/ }).count()).toBe(0);
    await shot(page, 'settlement-closed');
    expect(unexpectedErrors(errors)).toEqual([]);

    // A channel partner: its own channel, no lender.
    const partner = await consolePage(browser, server, {
      phone: PARTNER.phone,
      name: PARTNER.name,
      password: PASSWORD,
    });
    await partner.page.getByRole('menuitem', { name: '结算对账' }).click();
    await partner.page.goto(`${server.url}/admin/settlement?month=${current}`);
    await partner.page.getByText('仅显示您账号绑定的渠道。').waitFor({ timeout: 15_000 });
    expect(await partner.page.getByText('机构对账单', { exact: true }).count()).toBe(0);
    const channelRows = partner.page
      .locator('.ant-card', { hasText: '渠道对账单' })
      .locator('tbody tr.ant-table-row');
    await expect.poll(() => channelRows.count()).toBe(1);
    expect(await channelRows.first().textContent()).toContain('demo');
    expect(await partner.page.getByText(lender.party.name).count()).toBe(0);
    await shot(partner.page, 'settlement-channel-partner');
    expect(unexpectedErrors(partner.errors)).toEqual([]);
  });
});
