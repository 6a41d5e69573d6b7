/**
 * Issue 47.1 (ADR 069): a visitor from an Ocean Engine ad (`?adChannelCode=demo&clickid=…&callback=…`) is
 * known to the server as that click from the landing on, and the login credits the new person with it.
 */
import { describe, expect, it } from 'vitest';
import { phonePage, unexpectedErrors } from './browser.ts';
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

async function clicks(clickId: string): Promise<Click[]> {
  const res = await fetch(`${e2e.server.url}/api/dev/ad-clicks?clickId=${encodeURIComponent(clickId)}`);
  return ((await res.json()) as { data: Click[] }).data;
}

describe('ad clicks in Chromium', () => {
  it('the landing keeps the click, the login credits the person with it; nothing else of the URL', async () => {
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
    expect(unexpectedErrors(errors)).toEqual([]);
  });
});
