/**
 * Issue 48 "Done when", walked in the console in Chromium and by API on the server `npm start` runs:
 * an admin sets a CPL price on the product page; a person applies and consents; the lead shows at its price on
 * the lender's statement of the month; the sandbox lender returns it and the statement nets it out; a second
 * return is refused; an imported spend CSV (one bad row shown and skipped) appears on 投放收益 for the channel;
 * closing last month freezes it and a later return of a lead it charged lands in this month (跨月补记); a
 * channel-partner account sees its own channel's statement only.
 *
 * Last month's lead: a person consents while the delivery worker is off; with the server down, the lead is
 * marked delivered at the last minute of last month and a CPL of 20 元 is given a start in last month (what no
 * product call may do — prices start today or later); the server starts again and its worker books it there.
 * (The demo seed rewrites the demo lenders at each start, so their return settings are set after it, on the
 * lender's page.)
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shanghaiMonthOf } from '@lm/shared/money';
import type { RoiData } from '@lm/shared/schemas/roi';
import type { StatementDetailData, StatementsData } from '@lm/shared/schemas/settlement';
import { addDays, shanghaiDate } from '@lm/shared/time';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, shot, unexpectedErrors } from './browser.ts';
import { consolePage } from './console.ts';
import { apiCall, DEMO_FORM, loginPerson, type Person } from './person.ts';
import { type RunningServer, runCli, startServer } from './server.ts';

let server: RunningServer;
let browser: Browser;

const PASSWORD = 'money done-when e2e';
const ADMIN = { phone: '13500000071', name: '财务管理员', role: 'admin' };
const PARTNER = { phone: '13500000072', name: '渠道合作方', role: 'channel_partner', channels: 'demo' };
const today = shanghaiDate();
const yesterday = addDays(today, -1);
const current = shanghaiMonthOf(new Date());
const monthStart = new Date(`${current}-01T00:00:00+08:00`);
const lastMinute = new Date(monthStart.getTime() - 60_000);
const previous = shanghaiMonthOf(lastMinute);
const previousStart = new Date(`${previous}-01T00:00:00+08:00`);

/** Last month's lead (the person who consented while the worker was off). */
let old: { id: number; key: string; productId: number; partnerCode: string };

async function consentToAll(person: Person) {
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
}

const sql = (dataDir: string, ...statements: string[]) =>
  runCli(['e2e/db-sql.ts', ...statements], { DATA_DIR: dataDir });

beforeAll(async () => {
  const first = await startServer({ DELIVERY_WORKER: 'off' });
  server = first;
  await consentToAll(await loginPerson(first.url, '134'));
  expect(await first.stop()).toBe(0);
  for (const s of [ADMIN, PARTNER] as { phone: string; name: string; role: string; channels?: string }[]) {
    await runCli(
      [
        'apps/server/src/cli/admin-create.ts',
        ...['--phone', s.phone, '--name', s.name, '--role', s.role, '--password', PASSWORD],
        ...(s.channels ? ['--channels', s.channels] : []),
      ],
      { DATA_DIR: first.dataDir },
    );
  }
  const out = await sql(
    first.dataDir,
    `update leads set status = 'delivered', delivered_at = '${lastMinute.toISOString()}', updated_at = now()
       where status = 'pending'
       returning id, idempotency_key as key, product_id as "productId",
                 (select code from partners p where p.id = leads.partner_id) as "partnerCode"`,
    `insert into product_prices (product_id, model, amount_fen, effective_from)
       select distinct product_id, 'cpl', 2000, '${previousStart.toISOString()}'::timestamptz from leads`,
  );
  const leads = JSON.parse(out.split('\n')[0]!) as (typeof old)[];
  expect(leads.length).toBeGreaterThan(0);
  old = leads[0]!;
  server = await startServer({}, first.dataDir);
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function staffToken(phone: string) {
  return (
    await apiCall<{ token: string }>(server.url, '/api/crm/admin/login', {
      body: { phone, password: PASSWORD },
    })
  ).token;
}

const statements = (token: string, month: string) =>
  apiCall<StatementsData>(server.url, `/api/admin/settlement/statements?month=${month}`, { token });
const lenderOf = (data: StatementsData, code: string) =>
  data.statements.find((s) => s.party.type === 'lender' && s.party.code === code);

describe('money, done when (issue 48)', () => {
  it('price → lead on the statement → return nets it → second refused → spend on ROI → close → late return → channel partner', async () => {
    const token = await staffToken(ADMIN.phone);
    // Last month's lead was booked at last month's price when the server came back.
    await expect
      .poll(async () => lenderOf(await statements(token, previous), old.partnerCode)?.revenueFen ?? 0, {
        timeout: 45_000,
      })
      .toBeGreaterThanOrEqual(2000);
    const before = lenderOf(await statements(token, previous), old.partnerCode)!;

    // 1. The admin sets a CPL price of 35 元 from today on the lead's product, on the product page.
    const { page, errors } = await consolePage(browser, server, { ...ADMIN, password: PASSWORD });
    await page.goto(`${server.url}/admin/products/${old.productId}`);
    const prices = page.locator('.ant-card', { has: page.getByText('线索价格', { exact: true }) });
    await prices.getByPlaceholder('如 35.00').fill('35');
    await prices.getByRole('button', { name: '添加价格' }).click();
    await page.getByText(`已添加：按线索 CPL自 ${today} 起生效`).waitFor({ timeout: 15_000 });
    await expect.poll(() => prices.innerText()).toContain('35.00 元');
    await prices.scrollIntoViewIfNeeded();
    await shot(page, 'money-price');

    // The lender takes returns for 45 days (last month's lead may be a month old) and up to half a month's
    // leads: set on the lender's page.
    const partners = await apiCall<{ list: { id: number; code: string }[] }>(
      server.url,
      `/api/admin/partners?q=${old.partnerCode}&pageSize=50`,
      { token },
    );
    await page.goto(
      `${server.url}/admin/partners/${partners.list.find((p) => p.code === old.partnerCode)!.id}`,
    );
    await page.getByLabel('退回期限（天）').fill('45');
    await page.getByLabel('每月最高退回率').fill('50');
    await page.getByRole('button', { name: '保存修改' }).click();
    await page.getByText('已保存').first().waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByLabel('退回期限（天）').inputValue(), { timeout: 15_000 }).toBe('45');
    await shot(page, 'money-lender-returns');

    // 2. A person applies and consents; the worker delivers and books the lead at 35 元.
    await consentToAll(await loginPerson(server.url, '133'));
    let lead: { leadId: string } | undefined;
    await expect
      .poll(
        async () => {
          const received = await apiCall<{ leadId: string; productCode?: string }[]>(
            server.url,
            `/api/dev/partner-sandbox/${old.partnerCode}/leads`,
          );
          lead = received.find((l) => l.leadId !== old.key);
          return lenderOf(await statements(token, current), old.partnerCode)?.revenueFen ?? 0;
        },
        { timeout: 45_000 },
      )
      .toBeGreaterThanOrEqual(3500);
    expect(lead).toBeDefined();
    const delivered = lenderOf(await statements(token, current), old.partnerCode)!;
    expect(delivered).toMatchObject({ revenueFen: 3500, netFen: 3500, returned: 0 });

    await page.goto(`${server.url}/admin/settlement?month=${current}`);
    const lenderRow = page
      .locator('[aria-label="机构对账单"]')
      .locator('tr', { hasText: old.partnerCode })
      .first();
    await expect.poll(() => lenderRow.innerText(), { timeout: 15_000 }).toContain('35.00');
    await shot(page, 'money-statement-delivered');

    // 3. The sandbox lender returns it: the statement nets it out.
    const returned = await apiCall<{ status: string; reversedFen: number | null }>(
      server.url,
      `/api/dev/partner-sandbox/${old.partnerCode}/returns`,
      { body: { leadId: lead!.leadId, reason: 'invalid_phone' } },
    );
    expect(returned).toMatchObject({ status: 'accepted', reversedFen: 3500 });
    expect(lenderOf(await statements(token, current), old.partnerCode)).toMatchObject({
      revenueFen: 3500,
      returned: 1,
      returnedFen: 3500,
      netFen: 0,
    });
    await page.reload();
    // 线索 1, 退回 1, 授信 0, 放款 0, 收入 35.00, 退回冲减 35.00, …, 应收净额 0.00.
    await expect
      .poll(() => lenderRow.innerText(), { timeout: 15_000 })
      .toMatch(
        new RegExp(
          `${old.partnerCode}\\s+1\\s+1\\s+0\\s+0\\s+35\\.00 元\\s+35\\.00 元[\\s\\S]*\\s0\\.00 元\\s+查看`,
        ),
      );
    await shot(page, 'money-statement-returned');

    // 4. A second return of it: refused in words.
    await expect(
      apiCall(server.url, `/api/dev/partner-sandbox/${old.partnerCode}/returns`, {
        body: { leadId: lead!.leadId, reason: 'fraud' },
      }),
    ).rejects.toThrow(/1106 .*同一线索只能退回一次/);

    // 5. Spend: the ad platform's report of yesterday, one bad row shown and skipped; ROI shows the channel's cost.
    const dir = mkdtempSync(join(tmpdir(), 'lm-money-'));
    const file = join(dir, '投放日报.csv');
    writeFileSync(
      file,
      `\uFEFF${['日期,渠道编码,消耗（元）', `${yesterday},demo,"1,234.56"`, `${yesterday},no-such-channel,88`].join('\r\n')}\r\n`,
    );
    await page.getByRole('menuitem', { name: '消耗导入' }).click();
    await page.locator('input[type=file]').setInputFiles(file);
    const preview = page.getByTestId('spend-preview');
    await preview.waitFor({ timeout: 15_000 });
    await expect(
      preview.locator('.ant-table-row', { hasText: 'no-such-channel' }).innerText(),
    ).resolves.toContain('渠道编码「no-such-channel」不存在');
    await shot(page, 'money-spend-preview');
    await page.getByRole('button', { name: /^导\s*入$/ }).click();
    await expect(page.getByTestId('spend-import-result').innerText()).resolves.toContain(
      '已导入 1 行、跳过 1 行',
    );
    const roi = await apiCall<RoiData>(
      server.url,
      `/api/admin/roi?from=${yesterday}&to=${today}&groupBy=channel`,
      {
        token,
      },
    );
    expect(roi.rows.find((r) => r.key === 'demo')).toMatchObject({ costFen: 123_456 });
    await page.goto(`${server.url}/admin/roi?from=${yesterday}&to=${today}&groupBy=channel`);
    const demoRow = page
      .getByRole('region', { name: '投放收益明细' })
      .getByRole('row', { name: /demo/ })
      .first();
    await expect.poll(() => demoRow.innerText(), { timeout: 15_000 }).toContain('1,234.56');
    await shot(page, 'money-roi');

    // 6. Last month closed in the console: its statement is frozen.
    await page.goto(`${server.url}/admin/settlement?month=${previous}`);
    await page.getByRole('button', { name: /^关\s*账$/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: '确认关账' }).click();
    await page.getByText(`${previous} 已关账`).first().waitFor({ timeout: 15_000 });
    await shot(page, 'money-closed');

    // 7. A later return of last month's lead: booked in this month, marked 跨月补记; last month unchanged.
    const late = await apiCall<{ status: string; reversedFen: number | null }>(
      server.url,
      `/api/dev/partner-sandbox/${old.partnerCode}/returns`,
      { body: { leadId: old.key, reason: 'duplicate' } },
    );
    expect(late).toMatchObject({ status: 'accepted', reversedFen: 2000 });
    const frozen = lenderOf(await statements(token, previous), old.partnerCode)!;
    expect(frozen).toEqual({ ...before, status: 'closed' });
    expect((await statements(token, previous)).status).toBe('closed');
    const now = lenderOf(await statements(token, current), old.partnerCode)!;
    expect(now).toMatchObject({ returned: 2, returnedFen: 5500, netFen: -2000, lateEntries: 1 });
    const sheet = await apiCall<StatementDetailData>(
      server.url,
      `/api/admin/settlement/statements/lender/${old.partnerCode}?month=${current}`,
      { token },
    );
    expect(sheet.entries.find((e) => e.late)).toMatchObject({
      kind: 'return',
      eventMonth: previous,
      amountFen: -2000,
    });
    await page.goto(`${server.url}/admin/settlement/${current}/lender/${old.partnerCode}`);
    const article = page.getByRole('article', { name: '对账单' });
    await article.getByText(`跨月补记 ${previous}`).waitFor({ timeout: 15_000 });
    await shot(page, 'money-late-return');
    expect(unexpectedErrors(errors)).toEqual([]);

    // 8. The channel partner: its channel's statement, no lender.
    const partner = await consolePage(browser, server, { ...PARTNER, password: PASSWORD });
    await partner.page.goto(`${server.url}/admin/settlement?month=${current}`);
    await partner.page.getByText('仅显示您账号绑定的渠道。').waitFor({ timeout: 15_000 });
    expect(await partner.page.locator('[aria-label="机构对账单"]').count()).toBe(0);
    const rows = partner.page.locator('[aria-label="渠道对账单"]').locator('tbody tr.ant-table-row');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().innerText()).toContain('demo');
    await shot(partner.page, 'money-channel-partner');
    const partnerToken = await staffToken(PARTNER.phone);
    await expect(
      apiCall(server.url, `/api/admin/settlement/statements/lender/${old.partnerCode}?month=${current}`, {
        token: partnerToken,
      }),
    ).rejects.toThrow(/: 403 /);
    expect(unexpectedErrors(partner.errors)).toEqual([]);
  });
});
