import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { phonePage, shot, unexpectedErrors } from './browser.ts';
import { useServerAndBrowser } from './harness.ts';

/**
 * Issue 46.4: in-app browsers (WeChat, Douyin …) and a first script that does not arrive.
 * - The download button there shows how to open the page in the phone's browser (they block app
 *   downloads); in a browser it leaves for the download address.
 * - The app's entry script failing once is tried again; failing twice, a bar offers a reload.
 */

const e2e = useServerAndBrowser();

const WECHAT_ANDROID =
  'Mozilla/5.0 (Linux; Android 10; V2036A Build/QP1A.190711.020; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/107.0.5304.141 Mobile Safari/537.36 XWEB/5023 MMWEBSDK/20230202 MicroMessenger/8.0.33.2320(0x28002151) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64';
const DOUYIN_IOS =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 aweme_24.1.0 JsSdk/2.0 NetType/WIFI Channel/App Store ByteLocale/zh Region/CN';
const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36';

const phone = (browser: Browser, userAgent: string) => phonePage(browser, { userAgent });

/** The app (not the server's first screen) shows the download card's button. */
async function downloadButton(page: Page, label: string) {
  await page.goto(`${e2e.server.url}/download?adChannelCode=demo`);
  const button = page.getByRole('button', { name: label });
  await button.waitFor({ timeout: 20_000 });
  await page.waitForFunction(() => !document.documentElement.dataset.shell);
  return button;
}

describe('the download button in in-app browsers', () => {
  for (const [name, ua, label, menu] of [
    ['WeChat (Android)', WECHAT_ANDROID, '下载安卓版App', '在浏览器打开'],
    ['Douyin (iOS)', DOUYIN_IOS, '下载iOS版App', '在Safari中打开'],
  ] as const) {
    it(`${name}: shows how to open the page in the browser, reports the tap, stays`, async () => {
      const { context, page, errors } = await phone(e2e.browser, ua);
      try {
        const reported = page.waitForRequest((r) => r.url().includes('/api/reportUserDownloadApp'));
        const button = await downloadButton(page, label);
        const before = page.url();
        await button.click();
        await reported;
        const hint = page.getByRole('dialog', { name: '请在浏览器中打开' });
        await hint.waitFor();
        expect(await hint.innerText()).toContain(menu);
        await page.waitForTimeout(500);
        expect(page.url()).toBe(before);
        await page.screenshot({
          path: `${import.meta.dirname}/screenshots/in-app-download-hint-${ua === WECHAT_ANDROID ? 'wechat' : 'douyin'}.png`,
        });
        await hint.getByRole('button', { name: '我知道了' }).click();
        await hint.waitFor({ state: 'hidden' });
        expect(unexpectedErrors(errors)).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  it('a browser (Chrome on Android) leaves for the download address', async () => {
    const { context, page } = await phone(e2e.browser, ANDROID_CHROME);
    try {
      await context.route('https://download.example.com/**', (route) =>
        route.fulfill({ contentType: 'text/plain', body: 'apk' }),
      );
      const button = await downloadButton(page, '下载安卓版App');
      await button.click();
      await page.waitForURL('https://download.example.com/app/loan-market-2.3.0.apk', { timeout: 10_000 });
      expect(await page.getByRole('dialog', { name: '请在浏览器中打开' }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});

describe('the entry script does not arrive', () => {
  const ENTRY = /\/assets\/index-[\w-]+\.js$/;

  it('once: tried again a second later, the app starts', async () => {
    const { context, page, errors } = await phone(e2e.browser, ANDROID_CHROME);
    try {
      let failed = 0;
      await page.route(ENTRY, (route) => {
        if (failed++ === 0) return route.abort('connectionreset');
        return route.continue();
      });
      await page.goto(`${e2e.server.url}/?adChannelCode=demo`);
      await page.waitForFunction(() => document.documentElement.hasAttribute('data-app'), undefined, {
        timeout: 20_000,
      });
      await page.waitForFunction(() => !document.documentElement.dataset.shell, undefined, {
        timeout: 20_000,
      });
      expect(failed).toBe(2);
      expect(await page.locator('#lm-reload').count()).toBe(0);
      // The failed load itself is the only error.
      expect(unexpectedErrors(errors).filter((e) => !/ERR_CONNECTION_RESET|Failed to load/.test(e))).toEqual(
        [],
      );
    } finally {
      await context.close();
    }
  });

  for (const path of ['/?adChannelCode=demo', '/my']) {
    it(`twice on ${path}: a bar offers a reload, which brings the app`, async () => {
      const { context, page } = await phone(e2e.browser, ANDROID_CHROME);
      try {
        let down = true;
        await page.route(ENTRY, (route) => (down ? route.abort('internetdisconnected') : route.continue()));
        await page.goto(`${e2e.server.url}${path}`);
        const bar = page.getByRole('alert').filter({ hasText: '页面加载失败，请检查网络后刷新' });
        await bar.waitFor({ timeout: 20_000 });
        expect(await page.evaluate(() => document.documentElement.hasAttribute('data-app'))).toBe(false);
        await shot(page, `entry-failed-reload${path === '/my' ? '-my' : ''}`);
        down = false;
        await bar.getByRole('button', { name: '刷新页面' }).click();
        await page.waitForFunction(() => document.documentElement.hasAttribute('data-app'), undefined, {
          timeout: 20_000,
        });
        expect(await page.locator('#lm-reload').count()).toBe(0);
      } finally {
        await context.close();
      }
    });
  }
});
