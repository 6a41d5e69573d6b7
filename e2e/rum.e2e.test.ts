import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, phonePage, shot } from './browser.ts';
import { newDataDir, type RunningServer, runCli, startServer } from './server.ts';

let server: RunningServer;
let browser: Browser;
let token = '';

const VIEWER = { phone: '13500000031', name: '性能观察员', password: 'viewer rum secret' };

interface Row {
  group: string | null;
  metric: string;
  count: number;
  p75: number;
  rating: string | null;
}

beforeAll(async () => {
  // The embedded database belongs to one process: create the console account before the server starts.
  const dataDir = newDataDir();
  const out = await runCli(
    [
      'apps/server/src/cli/admin-create.ts',
      '--phone',
      VIEWER.phone,
      '--name',
      VIEWER.name,
      '--role',
      'viewer',
      '--password',
      VIEWER.password,
    ],
    { DATA_DIR: dataDir },
  );
  expect(out).toContain('role=viewer');
  server = await startServer({}, dataDir);
  browser = await launch();
  const res = await fetch(`${server.url}/api/crm/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ phone: VIEWER.phone, password: VIEWER.password }),
  });
  token = ((await res.json()) as { data: { token: string } }).data.token;
  expect(token).toBeTruthy();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The console's figures for a metric grouped by route (what the 性能监控 page shows). */
async function vitals(query: string): Promise<Row[]> {
  const res = await fetch(`${server.url}/api/admin/web-vitals?${query}`, { headers: { accesstoken: token } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { rows: Row[] } }).data.rows;
}

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

describe('real-user monitoring in the H5', () => {
  it('measures the landing page on a phone and sends the vitals when the page is left', async () => {
    const { page, context } = await phonePage(browser);
    // Records what the page hands to navigator.sendBeacon (and still sends it).
    await page.addInitScript(() => {
      const w = window as unknown as { __beacons: string[] };
      w.__beacons = [];
      const send = navigator.sendBeacon.bind(navigator);
      navigator.sendBeacon = (url, data) => {
        if (String(url).endsWith('/api/report/vitals')) w.__beacons.push(String(data));
        return send(url, data);
      };
    });
    const beacons = () => page.evaluate(() => (window as unknown as { __beacons: string[] }).__beacons);
    await page.goto(`${server.url}/?adChannelCode=rum-e2e&phone=13912345678`, { waitUntil: 'load' });
    await page
      .getByText(/借|额度|申请/)
      .first()
      .waitFor();
    // A tap: an interaction for INP, and the moment the collector loads (else 3 s after load).
    await page.touchscreen.tap(180, 300);
    await page
      .waitForResponse((r) => /\/assets\/monitor-[\w-]+\.js$/.test(r.url()), { timeout: 10_000 })
      .catch(() => {});
    await page.waitForTimeout(500);
    expect(await beacons()).toHaveLength(0); // nothing is sent while the page is in use
    // The page is hidden (switching apps): what is queued goes out in one text/plain beacon.
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
      document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
      // Back to the browser's own visibilityState for the real page hide below.
      delete (document as { visibilityState?: unknown }).visibilityState;
    });
    const sent = (await beacons()).map(
      (b) =>
        JSON.parse(b) as {
          env: string;
          version: string;
          items: { metric: string; route: string; channel: string }[];
        },
    );
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ env: 'prod', version: '1.0.3' });
    expect(sent[0]!.items.map((i) => i.metric)).toEqual(expect.arrayContaining(['TTFB', 'FCP']));
    expect(sent[0]!.items.every((i) => i.route === '/' && i.channel === 'rum-e2e')).toBe(true);
    // The route is the pattern: the query (a phone number here) never leaves the page.
    expect((await beacons()).join('')).not.toContain('13912345678');
    // Leaving the page: what is still queued (LCP once final) goes out too. Headless Chromium under load does
    // not always emit an LCP entry, so the figures every page load has (TTFB, FCP) are the ones required.
    await page.goto('about:blank');

    const rows = await until(
      () => vitals('groupBy=route'),
      (r) => ['TTFB', 'FCP'].every((m) => r.some((x) => x.group === '/' && x.metric === m)),
      'TTFB and FCP of /',
    );
    for (const m of ['TTFB', 'FCP']) {
      const row = rows.find((x) => x.group === '/' && x.metric === m)!;
      expect(row.count).toBeGreaterThanOrEqual(1);
      expect(row.p75).toBeGreaterThan(0);
      expect(['good', 'needs-improvement', 'poor']).toContain(row.rating);
    }
    // Tagged with the channel; the route is the pattern: the query (a phone number here) never leaves.
    const byChannel = await vitals('groupBy=channel&metric=FCP');
    expect(byChannel.find((r) => r.group === 'rum-e2e')?.count).toBeGreaterThanOrEqual(1);
    expect(rows.some((r) => r.group?.includes('?') || r.group?.includes('13912345678'))).toBe(false);
    await context.close();
  });

  it('reloads once when a page chunk fails, then shows the error page with a retry', async () => {
    const { page, context } = await phonePage(browser);
    let documents = 0;
    page.on('request', (req) => {
      if (req.resourceType() === 'document' && new URL(req.url()).pathname === '/failure') documents++;
    });
    await page.route(/\/assets\/failure-[\w-]+\.js$/, (route) => route.abort());
    await page.goto(`${server.url}/failure`);
    await page.getByText('页面加载失败').waitFor({ timeout: 15_000 });
    await expect.poll(() => documents).toBe(2); // the first load and exactly one automatic reload
    await page.waitForTimeout(1500);
    expect(documents).toBe(2); // no loop
    await expect(page.getByRole('button', { name: '刷新页面' })).toBeTruthy();
    expect(await page.getByRole('button', { name: '刷新页面' }).isVisible()).toBe(true);
    await shot(page, 'rum-chunk-error');

    const rows = await until(
      () => vitals('groupBy=route&metric=CHUNK_ERROR'),
      (r) => (r.find((x) => x.group === '/failure')?.count ?? 0) >= 2,
      'two CHUNK_ERROR reports of /failure',
    );
    expect(rows.find((x) => x.group === '/failure')).toMatchObject({
      metric: 'CHUNK_ERROR',
      count: 2,
      rating: null,
    });

    // Once the chunk loads again, the page shows normally.
    await page.unroute(/\/assets\/failure-[\w-]+\.js$/);
    await page.getByRole('button', { name: '刷新页面' }).click();
    await page.waitForLoadState('load');
    await expect.poll(() => page.getByText('页面加载失败').count()).toBe(0);
    await context.close();
  });

  it('shows p75 per route with its rating in the console', async () => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'zh-CN' });
    const page: Page = await context.newPage();
    await page.goto(`${server.url}/admin/login`);
    await page
      .getByPlaceholder(/手机号/)
      .first()
      .fill(VIEWER.phone);
    await page.getByPlaceholder(/密码/).first().fill(VIEWER.password);
    await page
      .getByRole('button', { name: /登\s*录/ })
      .first()
      .click();
    await page.waitForURL((url) => !url.pathname.endsWith('/login'), { timeout: 15_000 });
    await page.goto(`${server.url}/admin/web-vitals`);
    const fcp = page.locator('.ant-card', { hasText: 'FCP 首次内容绘制' });
    await fcp.locator('.ant-table-row', { hasText: '/' }).first().waitFor({ timeout: 15_000 });
    expect(await fcp.locator('[data-rating]').count()).toBeGreaterThanOrEqual(1);
    const chunk = page.locator('.ant-card', { hasText: '脚本加载失败' });
    await expect.poll(() => chunk.locator('.ant-table-row', { hasText: '/failure' }).count()).toBe(1);
    await shot(page, 'rum-console');
    await context.close();
  });
});
