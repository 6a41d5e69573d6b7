import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { phonePage, shot, unexpectedErrors } from './browser.ts';
import { useServerAndBrowser } from './harness.ts';

const e2e = useServerAndBrowser();

async function outbox(phone: string): Promise<{ code: string }[]> {
  const res = await fetch(`${e2e.server.url}/api/dev/sms-outbox?phone=${phone}`);
  return ((await res.json()) as { data: { code: string }[] }).data;
}

/** Taps 获取验证码 and waits for 网络连接错误; returns how long it took. */
async function tapExpectingNetworkError(page: Page): Promise<number> {
  const started = Date.now();
  await page.getByRole('button', { name: '获取验证码' }).click();
  await page.getByText('网络连接错误', { exact: true }).waitFor({ timeout: 3_000 });
  return Date.now() - started;
}

/** A toast is laid out as one (centred on the phone), not as unstyled text at the page's end. */
async function expectToastLaidOut(page: Page, text: string) {
  const box = await page.getByText(text, { exact: true }).boundingBox();
  expect(box).not.toBeNull();
  const viewport = page.viewportSize()!;
  expect(Math.abs(box!.x + box!.width / 2 - viewport.width / 2)).toBeLessThan(40);
  expect(box!.y + box!.height).toBeLessThan(viewport.height);
}

/** The button is back to 获取验证码 and tappable (not stuck on 发送中…). */
async function expectTappable(page: Page) {
  expect(await page.getByText('发送中…').count()).toBe(0);
  expect(await page.getByRole('button', { name: '获取验证码' }).isEnabled()).toBe(true);
}

describe('获取验证码 without a network (issue 16.7)', () => {
  it('offline: 网络连接错误 at once, nothing sent, the button stays tappable; online again, the next tap sends', async () => {
    const { page, context, errors } = await phonePage(e2e.browser);
    const sends: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/login/sendPhoneVerifyCode')) sends.push(r.url());
    });
    await page.goto(`${e2e.server.url}/login?adChannelCode=demo`);
    await page.waitForLoadState('networkidle');
    const phone = `138${String(Date.now()).slice(-8)}`;

    await context.setOffline(true);
    expect(await page.evaluate(() => navigator.onLine)).toBe(false);
    await page.getByPlaceholder('请输入手机号').fill(phone);
    await page.getByText('我已阅读并同意').click();
    expect(await tapExpectingNetworkError(page)).toBeLessThan(1_500);
    await expectToastLaidOut(page, '网络连接错误');
    await expectTappable(page);
    await shot(page, 'login-offline-code');
    expect(sends).toEqual([]);

    // A second tap while still offline says it again (nothing is queued).
    await page.getByText('网络连接错误', { exact: true }).waitFor({ state: 'hidden', timeout: 5_000 });
    expect(await tapExpectingNetworkError(page)).toBeLessThan(1_500);
    await expectTappable(page);

    await context.setOffline(false);
    await page.getByText('网络连接错误', { exact: true }).waitFor({ state: 'hidden', timeout: 5_000 });
    await page.getByRole('button', { name: '获取验证码' }).click();
    await expect.poll(() => page.getByText('验证码已发送').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await expectToastLaidOut(page, '验证码已发送');
    await expect.poll(() => page.getByText(/\d+s后重新获取/).count()).toBeGreaterThan(0);
    expect(sends).toHaveLength(1);
    expect((await outbox(phone)).length).toBe(1);
    await shot(page, 'login-offline-code-online-again');
    // The failed loads while offline are the browser's own reports, not the app's errors.
    expect(unexpectedErrors(errors).filter((e) => !e.includes('net::ERR_INTERNET_DISCONNECTED'))).toEqual([]);
  });

  it('the request itself fails (the browser still says online): 网络连接错误 at once, and a later tap retries', async () => {
    const { page, errors } = await phonePage(e2e.browser);
    await page.goto(`${e2e.server.url}/login?adChannelCode=demo`);
    await page.waitForLoadState('networkidle');
    const phone = `138${String(Date.now() + 1).slice(-8)}`;
    await page.getByPlaceholder('请输入手机号').fill(phone);

    await page.route('**/api/login/sendPhoneVerifyCode', (route) => route.abort('internetdisconnected'));
    expect(await tapExpectingNetworkError(page)).toBeLessThan(1_500);
    await expectTappable(page);
    expect(await outbox(phone)).toEqual([]);

    await page.unroute('**/api/login/sendPhoneVerifyCode');
    await page.getByText('网络连接错误', { exact: true }).waitFor({ state: 'hidden', timeout: 5_000 });
    await page.getByRole('button', { name: '获取验证码' }).click();
    await expect.poll(() => page.getByText('验证码已发送').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await expectToastLaidOut(page, '验证码已发送');
    expect((await outbox(phone)).length).toBe(1);
    expect(unexpectedErrors(errors).filter((e) => !e.includes('net::ERR_INTERNET_DISCONNECTED'))).toEqual([]);
  });
});
