/**
 * Issue 47.1 (ADR 069): a visitor from an Ocean Engine ad (`?adChannelCode=demo&clickid=…&callback=…`) is
 * known to the server as that click from the landing on, and the login credits the new person with it.
 * Issue 47.3: the registration and the form reach Ocean Engine (its local sandbox) once each for that click.
 * Issue 47, done when: the person consents on the authorise page; the sandbox lender reports approved, then
 * funded twice; Ocean Engine has active_register, form, loan_credit and loan once each, the loan with its
 * amount, nothing personal; the person's 申请记录 shows 已放款 with the amount.
 */
import { describe, expect, it } from 'vitest';
import { DEMO_PARTNERS } from '../apps/server/src/modules/products/seed.ts';
import { phonePage, shot, unexpectedErrors } from './browser.ts';
import { submitGoodForm } from './form.ts';
import { useServerAndBrowser } from './harness.ts';
import { logInWithCode } from './person.ts';

const e2e = useServerAndBrowser();

interface Click {
  platform: string;
  clickId: string;
  channelCode: string;
  params: Record<string, string>;
  userId: number | null;
}

interface SandboxEvent {
  eventType: string;
  valueFen: number | null;
  request: Record<string, unknown>;
}

async function oceanEngineReceived(clickid: string): Promise<SandboxEvent[]> {
  const res = await fetch(
    `${e2e.server.url}/api/dev/ad-sandbox/oceanengine/events?clickid=${encodeURIComponent(clickid)}`,
  );
  return ((await res.json()) as { data: SandboxEvent[] }).data;
}
const oceanEngineEvents = async (clickid: string) =>
  (await oceanEngineReceived(clickid)).map((e) => e.eventType);

/** The first lead a sandbox lender received on this journey's server (the only person on it). */
async function firstSandboxLead(): Promise<{ code: string; leadId: string } | null> {
  for (const p of DEMO_PARTNERS) {
    const res = await fetch(`${e2e.server.url}/api/dev/partner-sandbox/${p.code}/leads`);
    const leads = ((await res.json()) as { data?: { leadId: string }[] }).data ?? [];
    if (leads.length) return { code: p.code, leadId: leads[0]!.leadId };
  }
  return null;
}

async function lenderSays(lead: { code: string; leadId: string }, body: object) {
  const res = await fetch(`${e2e.server.url}/api/dev/partner-sandbox/${lead.code}/outcomes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ leadId: lead.leadId, ...body }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

async function clicks(clickId: string): Promise<Click[]> {
  const res = await fetch(`${e2e.server.url}/api/dev/ad-clicks?clickId=${encodeURIComponent(clickId)}`);
  return ((await res.json()) as { data: Click[] }).data;
}

describe('ad clicks in Chromium', () => {
  it('the landing keeps the click, the login credits the person with it; registration and form are reported once', async () => {
    const { page, errors } = await phonePage(e2e.browser);
    await page.route('**/api/banner/homeDialogBanner?*', (route) =>
      route.fulfill({ json: { code: 200, msg: 'success', data: null } }),
    );
    const clickid = `E2E${Date.now()}`;
    const callback = `CB${Date.now()}`;
    await page.goto(`${e2e.server.url}/?adChannelCode=demo&clickid=${clickid}&callback=${callback}&utm=x`);

    // The landing's funnel event carries the header: the click is known before any login.
    await expect
      .poll(() => clicks(clickid), { timeout: 15_000 })
      .toEqual([
        expect.objectContaining({
          platform: 'oceanengine',
          channelCode: 'demo',
          params: { clickid, callback },
          userId: null,
        }),
      ]);

    const phone = `132${String(Date.now()).slice(-8)}`;
    await logInWithCode(page, e2e.server.url, phone, '立即申请');
    await page.waitForURL(/\/fill-information/, { timeout: 15_000 });
    const uid = Number(await page.evaluate(() => localStorage.getItem('user_uid')));
    expect(uid).toBeGreaterThan(0);
    await expect.poll(async () => (await clicks(clickid))[0]?.userId).toBe(uid);
    // 注册 reaches Ocean Engine (the server's worker sends it to the local sandbox) against the clickid.
    await expect.poll(() => oceanEngineEvents(clickid), { timeout: 20_000 }).toEqual(['active_register']);

    // 表单提交: the form submitted in the page; once, however the page goes on.
    expect((await submitGoodForm(page)).status()).toBe(200);
    await expect
      .poll(() => oceanEngineEvents(clickid), { timeout: 20_000 })
      .toEqual(['active_register', 'form']);

    // Consent to every lender offered, on the authorise page.
    await page.waitForURL(/\/fill-information\/common-authorize/, { timeout: 15_000 });
    const boxes = page.locator('.adm-checkbox');
    await boxes.first().waitFor({ timeout: 15_000 });
    for (const box of await boxes.all()) await box.click();
    const consented = page.waitForResponse((r) => r.url().endsWith('/api/user/info/auth'));
    await page.getByRole('button', { name: /^同意授权并申请/ }).click();
    expect((await consented).status()).toBe(200);
    await page.waitForURL(/\/fill-information\/success/, { timeout: 15_000 });

    // The lender got the lead; it approves it, then funds it — and says so twice.
    await expect.poll(firstSandboxLead, { timeout: 20_000 }).not.toBeNull();
    const lead = (await firstSandboxLead())!;
    await lenderSays(lead, { status: 'approved', limitFen: 2_000_000 });
    await lenderSays(lead, { status: 'funded', amountFen: 1_500_000, termMonths: 12 });
    await lenderSays(lead, { status: 'funded', amountFen: 1_500_000, termMonths: 12 });
    await expect
      .poll(async () => (await oceanEngineEvents(clickid)).sort(), { timeout: 20_000 })
      .toEqual(['active_register', 'form', 'loan', 'loan_credit']);
    const received = await oceanEngineReceived(clickid);
    expect(received.find((e) => e.eventType === 'loan')).toMatchObject({
      valueFen: 1_500_000,
      request: { properties: { pay_amount: 15000 } },
    });
    const sent = JSON.stringify(received);
    for (const personal of ['张三', '110101199003074514', phone]) expect(sent).not.toContain(personal);

    // The person's record shows what the lender reported.
    await page.goto(`${e2e.server.url}/my/application-record`);
    await page.getByText('已放款').first().waitFor({ timeout: 15_000 });
    expect(await page.locator('main').innerText()).toContain('15,000');
    await shot(page, 'ad-click-journey-application-record');
    // Nothing more went after a while: each event once.
    await new Promise((r) => setTimeout(r, 1000));
    expect((await oceanEngineEvents(clickid)).length).toBe(4);
    expect(unexpectedErrors(errors)).toEqual([]);
  });
});
