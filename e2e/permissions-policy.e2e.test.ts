/**
 * Issue 44 item 20: the Permissions-Policy of every page names only features Chromium recognises. An unknown
 * one (`bluetooth` was) makes Chromium warn "Error with Permissions-Policy header: Unrecognized feature" on
 * every page load. Each page a visitor or an operator opens is loaded in Chromium; its console must say
 * nothing about the header.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, phonePage, shot } from './browser.ts';
import { type RunningServer, startServer } from './server.ts';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launch();
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('Permissions-Policy in Chromium (issue 44 item 20)', () => {
  it('names no feature Chromium does not recognise, on the H5, its login, a channel page and the console', async () => {
    // H5 pages keep the camera for themselves (ADR 020), the console denies it.
    for (const [path, camera] of [
      ['/', 'camera=(self)'],
      ['/?adChannelCode=demo', 'camera=(self)'],
      ['/login', 'camera=(self)'],
      ['/admin/', 'camera=()'],
    ] as const) {
      const { page, context } = await phonePage(browser);
      const warnings: string[] = [];
      page.on('console', (msg) => {
        if (/Permissions-Policy|Unrecognized feature/i.test(msg.text())) warnings.push(msg.text());
      });
      const res = await page.goto(`${server.url}${path}`, { waitUntil: 'load' });
      expect(res?.status(), path).toBe(200);
      expect(res?.headers()['permissions-policy'], path).toContain(camera);
      // The header is parsed as the document commits; the page's own first paint comes after.
      await page.locator('body').waitFor();
      await page.evaluate(() => document.readyState);
      if (path === '/') await shot(page, 'permissions-policy-home');
      expect(warnings, path).toEqual([]);
      await context.close();
    }
  });
});
