/**
 * Issue 16.2: the re-login pages (/login, /getQuota, /h5 — where 1005/1006 and plan links send
 * people) look and work like the landing's login card. On the old build they drew no consent box
 * (login.html lacked antd-mobile's CSS variables), showed placeholders in the colour of typed text and
 * refused every login with "请先阅读并同意协议".
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { phonePage, shot, unexpectedErrors } from './browser.ts';
import { useServerAndBrowser } from './harness.ts';

const e2e = useServerAndBrowser();

async function outboxCode(phone: string): Promise<string> {
  const res = await fetch(`${e2e.server.url}/api/dev/sms-outbox?phone=${phone}`);
  const body = (await res.json()) as { data: { code: string }[] };
  return body.data[0]!.code;
}

/** What the login card draws: the consent box, the colours of placeholder, typed text and button. */
async function looks(page: Page) {
  return page.evaluate(() => {
    const icon = document.querySelector('.adm-checkbox-icon');
    const input = document.querySelector<HTMLInputElement>('input[aria-label="手机号"]');
    const button = document.querySelector('button[type="submit"]');
    if (!icon || !input || !button) throw new Error('the login form is not on the page');
    const box = icon.getBoundingClientRect();
    const iconStyle = getComputedStyle(icon);
    return {
      boxWidth: box.width,
      boxBorder: `${iconStyle.borderTopStyle} ${iconStyle.borderTopWidth}`,
      placeholder: getComputedStyle(input, '::placeholder').color,
      text: getComputedStyle(input).color,
      buttonText: getComputedStyle(button).color,
      buttonBackground: getComputedStyle(button).backgroundColor,
    };
  });
}

const PAGES = [
  { path: '/login', channel: 'demo-skin8', prefix: '135' },
  { path: '/getQuota', channel: 'demo-skin10', prefix: '136' },
  { path: '/h5', channel: 'demo', prefix: '138' },
] as const;

describe('re-login pages: consent box, placeholders, login', () => {
  for (const { path, channel, prefix } of PAGES) {
    it(`${path}?adChannelCode=${channel}: the box is drawn, unticked login is refused, ticked login goes on`, async () => {
      const { page, errors, context } = await phonePage(e2e.browser);
      await page.goto(`${e2e.server.url}${path}?adChannelCode=${channel}`);
      const checkbox = page.getByText('我已阅读并同意');
      await checkbox.waitFor();
      // Wait for the app (not only the pre-rendered page): the form answers to typing.
      await page.waitForFunction(() => !document.documentElement.dataset.shell);

      const before = await looks(page);
      expect(before.boxWidth).toBeGreaterThan(10);
      expect(before.boxBorder).toMatch(/^solid [1-9]/);
      expect(before.buttonText).toBe('rgb(255, 255, 255)');
      expect(before.buttonBackground).not.toBe('rgba(0, 0, 0, 0)');
      // The placeholder is lighter than what the person types.
      expect(before.placeholder).not.toBe(before.text);
      await shot(page, `login-consent${path.replace('/', '-')}`);

      const phone = `${prefix}${String(Date.now()).slice(-8)}`;
      await page.getByPlaceholder('请输入手机号').fill(phone);
      expect((await looks(page)).text).toBe(before.text);
      await page.getByText('获取验证码').click();
      await expect.poll(() => page.getByText('验证码已发送').count()).toBeGreaterThan(0);
      await page.getByPlaceholder('请输入验证码').fill(await outboxCode(phone));

      // Unticked: refused with the visible hint, the page stays.
      await page.getByRole('button', { name: '登录' }).click();
      const hint = page.getByText('请先阅读并同意协议');
      await hint.waitFor({ state: 'visible' });
      expect(new URL(page.url()).pathname).toBe(path);
      expect(await page.evaluate(() => localStorage.getItem('TOKEN'))).toBeNull();

      // Ticked: the box shows it, and the login goes on to the flow.
      await checkbox.click();
      await expect
        .poll(() => page.locator('.adm-checkbox.adm-checkbox-checked .adm-checkbox-icon').isVisible())
        .toBe(true);
      const ticked = await page.evaluate(
        () => getComputedStyle(document.querySelector('.adm-checkbox-icon')!).backgroundColor,
      );
      expect(ticked).toBe(before.buttonBackground);
      await shot(page, `login-consent${path.replace('/', '-')}-ticked`);
      await page.getByRole('button', { name: '登录' }).click();
      await page.waitForURL((url) => url.pathname !== path, { timeout: 10_000 });
      expect(await page.evaluate(() => localStorage.getItem('TOKEN'))).toBeTruthy();
      expect(unexpectedErrors(errors)).toEqual([]);
      await context.close();
    });
  }
});
