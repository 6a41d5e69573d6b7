import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Browser, type BrowserContextOptions, chromium, type Page } from 'playwright-core';

export const SCREENSHOT_DIR = resolve(import.meta.dirname, 'screenshots');

/** Chromium headless; `extraArgs` are added to the usual flags (e.g. a fake camera). */
export async function launch(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-dev-shm-usage',
      ...extraArgs,
    ],
  });
}

/**
 * A phone-sized page that records console errors and failed requests; `options` change the context's
 * (another user agent — `undefined` for Chromium's own —, device scale, time zone …).
 */
export async function phonePage(browser: Browser, options: BrowserContextOptions = {}) {
  const context = await browser.newContext({
    viewport: { width: 375, height: 812 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'zh-CN',
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
    ...options,
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('response', (res) => {
    if (res.status() === 404) errors.push(`404 ${new URL(res.url()).pathname}`);
  });
  return { page, errors, context };
}

/** Holds back the app's entry script, as a slow network would, until the returned function is called. */
export async function holdAppEntry(page: Page): Promise<() => void> {
  let release!: () => void;
  const arrived = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
    await arrived;
    await route.continue();
  });
  return release;
}

export async function shot(page: Page, name: string) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: resolve(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/**
 * Calls whose endpoints arrive with a later issue: until then they answer 404 and the callers treat
 * them as "no data". (GET /api/app/userInfo/baseDetail, once here, exists since issue 5.)
 */
export const LATER_ISSUE_ENDPOINTS: string[] = [];

/** Console errors minus the 404s of LATER_ISSUE_ENDPOINTS (each logs "404 path" and a resource error). */
export function unexpectedErrors(errors: string[]): string[] {
  const later = errors.filter((e) => LATER_ISSUE_ENDPOINTS.some((p) => e === `404 ${p}`)).length;
  let resourceErrorsToDrop = later;
  return errors.filter((e) => {
    if (LATER_ISSUE_ENDPOINTS.some((p) => e === `404 ${p}`)) return false;
    if (resourceErrorsToDrop > 0 && e.includes('status of 404')) {
      resourceErrorsToDrop--;
      return false;
    }
    return true;
  });
}
