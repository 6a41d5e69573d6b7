/**
 * Issue 47.1 (ADR 069): a visitor from an Ocean Engine ad (`?adChannelCode=demo&clickid=…&callback=…`) is
 * known to the server as that click from the landing on, and the login credits the new person with it.
 * Issue 47.3: the registration and the form reach Ocean Engine (its local sandbox) once each for that click.
 */
import { describe, expect, it } from 'vitest';
import { phonePage, unexpectedErrors } from './browser.ts';
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
  request: Record<string, unknown>;
}

async function oceanEngineEvents(clickid: string): Promise<string[]> {
  const res = await fetch(
    `${e2e.server.url}/api/dev/ad-sandbox/oceanengine/events?clickid=${encodeURIComponent(clickid)}`,
  );
  return ((await res.json()) as { data: SandboxEvent[] }).data.map((e) => e.eventType);
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

    await logInWithCode(page, e2e.server.url, `132${String(Date.now()).slice(-8)}`, '立即申请');
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
    expect(unexpectedErrors(errors)).toEqual([]);
  });
});
