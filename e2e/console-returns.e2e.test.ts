/**
 * Issue 48.4 in the console: the sandbox lender returns a lead with the reason 其他 (a disputed return); it
 * appears on 线索退回 (待审核 by default) with the lender's words and why it waits; the operator accepts it with a
 * note in the confirm dialog, and it moves to 已退回 with the amount reversed and who reviewed it.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, shot, unexpectedErrors } from './browser.ts';
import { consolePage, startServerWithStaff } from './console.ts';
import { apiCall, DEMO_FORM, loginPerson } from './person.ts';
import type { RunningServer } from './server.ts';

let server: RunningServer;
let browser: Browser;

const PASSWORD = 'returns console e2e';
const OPERATOR_PHONE = '13500000093';

beforeAll(async () => {
  server = await startServerWithStaff(
    [{ phone: OPERATOR_PHONE, name: '退回审核运营', role: 'operator' }],
    PASSWORD,
  );
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A person consents to the lenders offered; answers a lead some sandbox lender received. */
async function deliveredLead() {
  const person = await loginPerson(server.url, '137');
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
  let found: { code: string; leadId: string } | null = null;
  await expect
    .poll(
      async () => {
        for (const letter of 'abcdefgh') {
          const code = `partner-${letter}`;
          const list = await apiCall<{ leadId: string }[]>(
            server.url,
            `/api/dev/partner-sandbox/${code}/leads`,
          );
          if (list[0]) found = { code, leadId: list[0].leadId };
        }
        return found !== null;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  return found as unknown as { code: string; leadId: string };
}

describe('lead returns in the console (issue 48.4)', () => {
  it('a disputed return appears on 线索退回 and the operator accepts it', async () => {
    const lead = await deliveredLead();
    // The lender returns it as soon as our side has recorded the delivery.
    let returned: { returnId: number; status: string } | null = null;
    await expect
      .poll(
        async () => {
          try {
            returned = await apiCall(server.url, `/api/dev/partner-sandbox/${lead.code}/returns`, {
              body: { leadId: lead.leadId, reason: 'other', reasonText: '客户称从未申请贷款' },
            });
          } catch (err) {
            if (!String(err).includes('尚未成功推送')) throw err;
          }
          return returned !== null;
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    const { returnId, status } = returned as unknown as { returnId: number; status: string };
    expect(status).toBe('disputed');

    const { page, errors, context } = await consolePage(browser, server, {
      phone: OPERATOR_PHONE,
      name: '退回审核运营',
      password: PASSWORD,
    });
    await page.goto(`${server.url}/admin/returns`);
    const row = page.locator('.ant-table-row', { hasText: lead.leadId });
    await page.locator('.ant-table').first().waitFor({ timeout: 15_000 });
    await shot(page, 'console-returns-page');
    await row.waitFor({ timeout: 15_000 });
    const text = await row.innerText();
    expect(text).toContain('其他');
    expect(text).toContain('客户称从未申请贷款');
    expect(text).toContain('待审核');
    expect(text).toContain('退回原因为「其他」，需人工核实机构的说明');
    await shot(page, 'console-returns-disputed');

    await row.getByRole('button', { name: '接受' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`接受退回 #${returnId}`).waitFor();
    // A note is required.
    await dialog.getByRole('button', { name: '确认接受' }).click();
    await dialog.getByText('请填写审核说明').waitFor();
    await dialog.getByLabel('审核说明').fill('已电话核实，客户未申请');
    await shot(page, 'console-returns-accept-dialog');
    await dialog.getByRole('button', { name: '确认接受' }).click();
    await page.getByText('已接受退回，线索收入已冲减').waitFor();
    // Gone from 待审核; under 已退回 with the reviewer and the amount.
    await expect.poll(() => page.locator('.ant-table-row', { hasText: lead.leadId }).count()).toBe(0);
    await page.getByRole('combobox', { name: '状态', exact: true }).click({ force: true });
    await page.locator('.ant-select-item-option', { hasText: '已退回' }).click();
    const accepted = page.locator('.ant-table-row', { hasText: lead.leadId });
    await accepted.waitFor({ timeout: 15_000 });
    const after = await accepted.innerText();
    expect(after).toContain('已退回');
    expect(after).toContain('退回审核运营');
    expect(after).toContain('已电话核实，客户未申请');
    expect(after).toMatch(/\d[\d,]*\.\d{2} 元/);
    expect(page.url()).toContain('status=accepted');
    await shot(page, 'console-returns-accepted');
    expect(unexpectedErrors(errors)).toEqual([]);
    await context.close();
  });
});
