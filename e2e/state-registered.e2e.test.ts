/**
 * Issue 16.9: "already registered" (applyStatus 2) reached with the demo data. With the partner
 * sandbox on, the seeded lenders answer duplicate pre-checks from the leads they received. The person
 * applied at 南湖农村商业银行 directly (a signed lead posted to its sandbox API, as any channel would),
 * then fills our form in Xining, where that lender's product is the only one left: the match answers
 * applyStatus 2 with the lender's own page, the confirm offers it, and 立即前往 opens /inline-page.
 */
import { describe, expect, it } from 'vitest';
import { sign } from '../apps/server/src/modules/delivery/signing.ts';
import { phonePage, shot, unexpectedErrors } from './browser.ts';
import { submitForm, XINING_NOTHING_ELSE } from './demo-states.ts';
import { useServerAndBrowser } from './harness.ts';
import { loginPerson, signIn } from './person.ts';

const e2e = useServerAndBrowser({ PARTNER_SANDBOX: 'on' });

/** The demo signing secret of partner-e (apps/server/src/modules/products/seed.ts). */
const PARTNER_E_SECRET = 'demo-signing-secret-partner-e';
const LENDER_PAGE = 'https://partner-e.example.com/login?from=lm';

/** A lead for `phone` received by partner-e's sandbox from elsewhere (the person applied there). */
async function registerAtLender(phone: string) {
  const leadId = `direct-${Date.now()}`;
  const body = JSON.stringify({ leadId, fields: { mobile: phone } });
  const ts = Math.floor(Date.now() / 1000);
  const res = await fetch(`${e2e.server.url}/api/dev/partner-sandbox/partner-e/leads`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'idempotency-key': leadId,
      'x-lm-timestamp': String(ts),
      'x-lm-signature': sign(PARTNER_E_SECRET, ts, body),
    },
    body,
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

describe('already registered at the lender', () => {
  it('applyStatus 2: the confirm names the lender’s page, 立即前往 opens it in /inline-page', async () => {
    const person = await loginPerson(e2e.server.url, '132');
    await registerAtLender(person.phone);
    const { page, context, errors } = await phonePage(e2e.browser);
    await signIn(context, person);
    // The lender's page (an invented host): answered here instead of the internet.
    await context.route('https://partner-e.example.com/**', (route) =>
      route.fulfill({
        contentType: 'text/html; charset=utf-8',
        body: '<!doctype html><meta charset="utf-8"><h1>南湖农商行 · 登录继续申请</h1>',
      }),
    );
    const match = await submitForm(page, e2e.server.url, XINING_NOTHING_ELSE);
    expect(match.applyStatus).toBe(2);
    expect(match.productName).toBeNull();
    expect(match.thirdpartyTargetUrl).toBe(LENDER_PAGE);

    // Issue 44.16: the confirm names the lender the person is registered with.
    expect(match).toMatchObject({ lender: { legalName: '南湖农村商业银行股份有限公司' } });
    const confirm = page.getByText('您已在南湖农村商业银行股份有限公司注册过', { exact: false });
    await confirm.waitFor({ timeout: 10_000 });
    await page.waitForTimeout(400);
    await shot(page, 'state-registered-confirm');
    await page.getByText('立即前往', { exact: true }).click();
    await page.waitForURL(/\/inline-page/, { timeout: 10_000 });
    expect(new URL(page.url()).searchParams.get('url')).toBe(LENDER_PAGE);
    await expect
      .poll(() => page.frames().some((f) => f.url().startsWith('https://partner-e.example.com/')), {
        timeout: 10_000,
      })
      .toBe(true);
    await shot(page, 'state-registered-inline-page');
    // signIn's init script runs in every frame; in the lender's sandboxed frame storage is denied.
    const ownScript = (e: string) => e.includes("Failed to read the 'localStorage' property");
    expect(unexpectedErrors(errors).filter((e) => !ownScript(e))).toEqual([]);
    await context.close();
  }, 90_000);
});
