/**
 * Issue 17.1: an ad link's first HTML already shows its channel's page — the skin's layout, colour,
 * product name and title — before any script runs, and the app takes it over without a second look:
 * no skeleton, no h5Config or route code call, the same pixels, nothing typed lost.
 * Each page is opened twice in Chromium: with JavaScript off (what the server's HTML alone shows) and
 * on (what the visitor ends up with).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { holdAppEntry, shot, unexpectedErrors } from './browser.ts';
import { useServerAndBrowser } from './harness.ts';
import { apiCall } from './person.ts';
import { comparePngs, MAX_DIFF_RATIO } from './visual.ts';

const e2e = useServerAndBrowser();

interface ChannelPage {
  url: string;
  code: string;
  /** The landing layout (spec §1 skins → layouts), or the login page. */
  layout: 'amount-dial' | 'steps-list' | 'hero-card' | 'banner-benefits' | 'login';
  /** Text of the skin's own page. */
  text: string;
}

// A login page first: the server has then loaded the login form, which the landing must still not
// show before the app does (its first frame holds a placeholder there).
const PAGES: ChannelPage[] = [
  { url: '/login?adChannelCode=demo-skin8', code: 'demo-skin8', layout: 'login', text: '手机号登录' },
  { url: '/?adChannelCode=demo-skin8', code: 'demo-skin8', layout: 'amount-dial', text: '测一测我能借多少' },
  // Another visitor of the same ad: the click's own parameters, the page the server keeps for the channel.
  {
    url: '/?clickid=e2e-click-2&adChannelCode=demo-skin8&callback=https%3A%2F%2Fad.example.com%2Fcb%3Fid%3D2',
    code: 'demo-skin8',
    layout: 'amount-dial',
    text: '测一测我能借多少',
  },
  { url: '/?adChannelCode=demo-skin10', code: 'demo-skin10', layout: 'steps-list', text: '三步申请' },
  { url: '/?adChannelCode=demo-skin17', code: 'demo-skin17', layout: 'hero-card', text: '手机号快速申请' },
  { url: '/?source=demo-skin12', code: 'demo-skin12', layout: 'banner-benefits', text: '立即申请，在线测额' },
  { url: '/?adRouteCode=r-demo', code: 'demo', layout: 'hero-card', text: '手机号快速申请' },
  { url: '/getQuota?adChannelCode=demo-skin10', code: 'demo-skin10', layout: 'login', text: '手机号登录' },
];

const PHONE = {
  viewport: { width: 375, height: 812 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
  locale: 'zh-CN',
};

async function open(browser: Browser, url: string, javaScriptEnabled: boolean) {
  const context = await browser.newContext({ ...PHONE, javaScriptEnabled });
  const page = await context.newPage();
  const errors: string[] = [];
  const calls: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('request', (req) => {
    const path = new URL(req.url()).pathname;
    if (/^\/api\/adChannel\/(h5Config|exchange)/.test(path)) calls.push(path);
  });
  // Whether the app ever showed its waiting skeleton (what a channel link showed before).
  await page.addInitScript(() => {
    const w = window as unknown as { __skeleton: boolean };
    w.__skeleton = false;
    new MutationObserver(() => {
      if (document.querySelector('main[aria-busy="true"]')) w.__skeleton = true;
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto(`${e2e.server.url}${url}`);
  return { context, page, errors, calls };
}

/** The channel colour as painted (antd-mobile's primary colour variable). */
const primaryColour = (page: Page) =>
  page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--app-primary').trim());

/** The top of the page: hero and card title (landing) or header and form (login). */
const topOf = (page: Page, layout: ChannelPage['layout']) =>
  page.screenshot({
    clip: { x: 0, y: 0, width: 375, height: layout === 'login' ? 400 : 200 },
    animations: 'disabled',
    caret: 'hide',
    scale: 'css',
  });

describe("an ad link's first HTML shows its channel's page", () => {
  it.each(PAGES)('$url: the server’s page is the skin’s, and the app takes it over unchanged', async (p) => {
    const config = await apiCall<{ title: string | null; skin: number }>(
      e2e.server.url,
      `/api/adChannel/h5Config?adChannelCode=${p.code}`,
    );
    const name = config.title ?? '';
    expect(name).not.toBe('');

    // JavaScript off: the server's HTML alone.
    const first = await open(e2e.browser, p.url, false);
    let firstTop: Buffer;
    let firstColour: string;
    try {
      const { page } = first;
      if (p.layout !== 'login') {
        await expect(page.locator(`main[data-layout="${p.layout}"]`).first().isVisible()).resolves.toBe(true);
      }
      await expect(page.getByText(p.text).first().isVisible()).resolves.toBe(true);
      // The login page's form is real (typing is kept); the landing's slot holds the placeholder that
      // the app's first frame shows too.
      expect(await page.locator('#lm-shell input').count()).toBe(p.layout === 'login' ? 3 : 0);
      await expect(page.getByText(name).first().isVisible()).resolves.toBe(true);
      expect(await page.title()).toBe(name);
      firstColour = await primaryColour(page);
      expect(firstColour).toMatch(/^#[0-9a-f]{6}$/);
      await page.evaluate(() => document.fonts.ready.then(() => undefined));
      firstTop = await topOf(page, p.layout);
      await shot(
        page,
        `channel-page-first-html-${p.code}-${p.layout}${p.url.includes('clickid=') ? '-ad-click' : ''}`,
      );
    } finally {
      await first.context.close();
    }

    // JavaScript on: the app starts from the inlined configuration and replaces the page with itself.
    const app = await open(e2e.browser, p.url, true);
    try {
      const { page } = app;
      await page.waitForFunction(() => !document.getElementById('lm-shell'), undefined, { timeout: 15_000 });
      await page.getByText(p.text).first().waitFor();
      if (p.layout !== 'login') await page.locator(`main[data-layout="${p.layout}"]`).first().waitFor();
      expect(await page.evaluate(() => (window as unknown as { __skeleton: boolean }).__skeleton)).toBe(
        false,
      );
      expect(app.calls).toEqual([]);
      expect(await primaryColour(page)).toBe(firstColour);
      expect(await page.title()).toBe(name);
      // The same pixels at the top of the page (the login form's own slot below is the app's).
      await page.getByPlaceholder('请输入手机号').waitFor();
      await page.evaluate(() => document.fonts.ready.then(() => undefined));
      const comparison = await comparePngs(await topOf(page, p.layout), firstTop);
      expect(comparison.ratio, `${p.url}: ${comparison.differing} pixels differ`).toBeLessThanOrEqual(
        MAX_DIFF_RATIO,
      );
      expect(unexpectedErrors(app.errors)).toEqual([]);
    } finally {
      await app.context.close();
    }
  });

  it('what a visitor types and taps on the server’s login page before the app arrives is kept', async () => {
    const context: BrowserContext = await e2e.browser.newContext(PHONE);
    try {
      const page = await context.newPage();
      // A slow network: the app's entry script arrives when the test says.
      const release = await holdAppEntry(page);
      await page.goto(`${e2e.server.url}/login?adChannelCode=demo-skin10`);
      const shellPhone = page.locator('#lm-shell input[aria-label="手机号"]');
      const phoneNumber = `139${String(Date.now()).slice(-8)}`;
      // The agreement ticked, 获取验证码 tapped (no native submit: the address keeps its query), then
      // back in the phone field, still typing.
      await page.locator('#lm-shell').getByText('我已阅读并同意').click();
      await page.locator('#lm-shell').getByRole('button', { name: '获取验证码' }).click();
      await shellPhone.click();
      await page.keyboard.type(phoneNumber);
      expect(page.url()).toContain('?adChannelCode=demo-skin10');
      expect(await page.evaluate(() => Boolean(document.getElementById('lm-shell')))).toBe(true);
      release();
      await page.waitForFunction(() => !document.getElementById('lm-shell'), undefined, { timeout: 15_000 });
      const phone = page.locator('#root input[aria-label="手机号"]');
      await expect.poll(() => phone.inputValue()).toBe(phoneNumber);
      expect(await page.locator('#root .adm-checkbox-checked').count()).toBe(1);
      // The code asked for on the server's page is sent when the app takes over.
      await expect.poll(() => page.getByText('验证码已发送').count(), { timeout: 10_000 }).toBeGreaterThan(0);
      const outbox = await apiCall<{ code: string }[]>(
        e2e.server.url,
        `/api/dev/sms-outbox?phone=${phoneNumber}`,
      );
      expect(outbox).toHaveLength(1);
      // The focus stays in the field: typing goes on.
      await page.keyboard.press('Backspace');
      await expect.poll(() => phone.inputValue()).toBe(phoneNumber.slice(0, -1));
      await shot(page, 'channel-page-typed-before-app');
    } finally {
      await context.close();
    }
  });

  it('keys typed while the app renders over the server’s login page on a slow phone are kept', async () => {
    // The app's first render is a transition rendered in slices over several tasks: it read the shell's
    // fields at its start, and keys typed on the shell until its commit were lost (a 6× slower CPU: 6 of 6
    // runs lost 1–3 digits). The form now reads the shell again as it takes it over.
    const context: BrowserContext = await e2e.browser.newContext(PHONE);
    try {
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
      const release = await holdAppEntry(page);
      await page.goto(`${e2e.server.url}/login?adChannelCode=demo-skin10`, { waitUntil: 'commit' });
      await page.locator('#lm-shell input[aria-label="手机号"]').click();
      const phoneNumber = `139${String(Date.now()).slice(-8)}`;
      await page.keyboard.type(phoneNumber.slice(0, 2));
      // The app arrives; the visitor goes on typing, a key every ~40 ms, while it starts and renders.
      release();
      const typedOnShell: boolean[] = [];
      for (const digit of phoneNumber.slice(2)) {
        await page.keyboard.type(digit);
        typedOnShell.push(await page.evaluate(() => Boolean(document.getElementById('lm-shell'))));
        await page.waitForTimeout(40);
      }
      // Most keys went to the server's page while the app worked (else this test would not test it).
      expect(typedOnShell.filter(Boolean).length).toBeGreaterThanOrEqual(5);
      await page.waitForFunction(() => !document.getElementById('lm-shell'), undefined, { timeout: 15_000 });
      const phone = page.locator('#root input[aria-label="手机号"]');
      await expect.poll(() => phone.inputValue()).toBe(phoneNumber);
      // The focus went over with the text: the next key edits the app's field.
      await page.keyboard.press('Backspace');
      await expect.poll(() => phone.inputValue()).toBe(phoneNumber.slice(0, -1));
    } finally {
      await context.close();
    }
  });

  it('a link without a code gets the server’s default page; a returning visitor’s kept channel is the app’s (ADR 065)', async () => {
    const context: BrowserContext = await e2e.browser.newContext(PHONE);
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(err.message));
      const defaults = await apiCall<{ title: string | null }>(e2e.server.url, '/api/adChannel/h5Config');
      await page.goto(`${e2e.server.url}/?utm_source=e2e`);
      // The server's page is shown (no script needed for it) …
      expect(await page.evaluate(() => document.documentElement.dataset.ssrChannel)).toBe('');
      await expect(page.locator('#lm-shell').getByText('手机号快速申请').isVisible()).resolves.toBe(true);
      // … and the app's scripts were asked for only after it had painted.
      await page.waitForFunction(() => !document.getElementById('lm-shell'), undefined, { timeout: 15_000 });
      const timing = await page.evaluate(() => {
        const paint = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN;
        const scripts = performance
          .getEntriesByType('resource')
          .filter((r) => /\/assets\/.+\.js$/.test(r.name))
          .map((r) => r.startTime);
        return { paint, firstScript: Math.min(...scripts) };
      });
      expect(timing.firstScript, JSON.stringify(timing)).toBeGreaterThanOrEqual(timing.paint);
      await page.getByPlaceholder('请输入手机号').waitFor();
      expect(await page.title()).toBe(defaults.title ?? '借款超市');
      await shot(page, 'channel-page-default');

      // A visitor who came from skin 8's ad before: the default page is not theirs, the app renders skin 8.
      await page.goto(`${e2e.server.url}/?adChannelCode=demo-skin8`);
      await page.getByText('测一测我能借多少').first().waitFor();
      await page.goto(`${e2e.server.url}/`);
      expect(await page.evaluate(() => document.documentElement.dataset.ssrChannel)).toBe('');
      expect(await page.evaluate(() => document.documentElement.dataset.shell)).toBeUndefined();
      await page.locator('main[data-layout="amount-dial"]').first().waitFor();
      await page.getByText('测一测我能借多少').first().waitFor();
      expect(unexpectedErrors(errors)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
