/**
 * Issue 6 "who has my data": a person withdraws consent to one lender while its lead still waits in
 * the outbox, downloads their data, and after the delivery worker runs the withdrawn lead was never
 * sent while the other lender's was.
 */
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, phonePage, shot, unexpectedErrors } from './browser.ts';
import { type ApiInit, apiCall, DEMO_FORM, loginPerson, signIn } from './person.ts';
import { newDataDir, type RunningServer, startServer } from './server.ts';

let server: RunningServer;
let browser: Browser;
const dataDir = newDataDir();

const api = <T>(path: string, init?: ApiInit) => apiCall<T>(server.url, path, init);

interface Sharing {
  list: {
    partnerId: number;
    lenderName: string;
    withdrawn: boolean;
    leads: { status: string; deliveredAt: string | null }[];
  }[];
}

beforeAll(async () => {
  // The worker is off: consented leads wait in the outbox until the server restarts with it.
  server = await startServer({ DELIVERY_WORKER: 'off' }, dataDir);
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('who has my data, in Chromium', () => {
  it('withdrawal stops a pending delivery; export returns the person’s data', async () => {
    const person = await loginPerson(server.url, '138');
    const { token, phone } = person;
    const match = await api<{ mayAuthProductList: { id: string }[] }>('/api/user/info/save', {
      token,
      body: DEMO_FORM,
    });
    const consent = await api<{ consented: { productId: string; mode: string }[] }>('/api/user/info/auth', {
      method: 'PUT',
      token,
      body: { productIds: match.mayAuthProductList.map((p) => p.id) },
    });
    expect(consent.consented.filter((c) => c.mode === 'api').length).toBeGreaterThanOrEqual(2);

    const before = await api<Sharing>('/api/user/data-sharing', { token });
    const pendingLenders = before.list.filter((e) => e.leads.some((l) => l.status === 'pending'));
    expect(pendingLenders.length).toBeGreaterThanOrEqual(2);
    const [withdrawn, kept] = pendingLenders as [Sharing['list'][0], Sharing['list'][0]];

    const { page, errors, context } = await phonePage(browser);
    await signIn(context, person);
    await page.goto(`${server.url}/my/data-sharing`);
    const card = page
      .locator('article, section, li, div')
      .filter({ hasText: withdrawn.lenderName })
      .filter({
        has: page.getByRole('button', { name: '撤回授权' }),
      });
    await card.last().getByRole('button', { name: '撤回授权' }).click();
    await page.getByText('确认撤回').click();
    await expect.poll(() => page.getByText('已撤回', { exact: true }).count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByText('确认撤回').count()).toBe(0);
    await page.waitForTimeout(2500); // the success toast fades
    await shot(page, 'privacy-withdrawn');

    // Export: the browser downloads a JSON file holding this person's own data.
    const download = page.waitForEvent('download');
    await page
      .getByRole('button', { name: /导出我的数据/ })
      .first()
      .click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^my-data-\d{8}\.json$/);
    const exported = JSON.parse(readFileSync((await file.path())!, 'utf8')) as Record<string, unknown>;
    const text = JSON.stringify(exported);
    expect(text).toContain(phone);
    expect(text).toContain('张三');
    expect(text).toContain(withdrawn.lenderName);
    expect(text).toContain(kept.lenderName);
    expect(unexpectedErrors(errors)).toEqual([]);
    await context.close();

    // Restart with the delivery worker: the kept lender gets its lead, the withdrawn one never does.
    await server.stop();
    server = await startServer({ DELIVERY_WORKER: 'inline' }, dataDir);
    await expect
      .poll(
        async () => {
          const now = await api<Sharing>('/api/user/data-sharing', { token });
          return now.list.find((e) => e.partnerId === kept.partnerId)?.leads.map((l) => l.status);
        },
        { timeout: 30_000, interval: 500 },
      )
      .toContain('delivered');
    const after = await api<Sharing>('/api/user/data-sharing', { token });
    const w = after.list.find((e) => e.partnerId === withdrawn.partnerId)!;
    expect(w.withdrawn).toBe(true);
    expect(w.leads.map((l) => l.status)).toEqual(w.leads.map(() => 'withdrawn'));
    expect(w.leads.every((l) => l.deliveredAt === null)).toBe(true);
  });
});
