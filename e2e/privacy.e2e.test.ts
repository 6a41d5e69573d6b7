/**
 * Issue 6 "who has my data": a person withdraws consent to one lender while its lead still waits in
 * the outbox, downloads their data, and after the delivery worker runs the withdrawn lead was never
 * sent while the other lender's was.
 */
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, phonePage, shot, unexpectedErrors } from './browser.ts';
import { newDataDir, type RunningServer, startServer } from './server.ts';

let server: RunningServer;
let browser: Browser;
const dataDir = newDataDir();

interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

async function api<T>(path: string, init: { method?: string; body?: unknown; token?: string } = {}) {
  const res = await fetch(`${server.url}${path}`, {
    method: init.method ?? (init.body ? 'POST' : 'GET'),
    headers: {
      ...(init.body ? { 'content-type': 'application/json' } : {}),
      ...(init.token ? { accessToken: init.token } : {}),
    },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  const body = (await res.json()) as Envelope<T>;
  if (body.code !== 200) throw new Error(`${path}: ${body.code} ${body.msg}`);
  return body.data;
}

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
    const phone = `138${String(Date.now()).slice(-8)}`;
    await api('/api/login/sendPhoneVerifyCode', { body: { phone } });
    const [sms] = await api<{ code: string }[]>(`/api/dev/sms-outbox?phone=${phone}`);
    const login = await api<{ token: string; loginUser: { uid: number } }>('/api/login', {
      body: { mobile: phone, code: sms!.code, adChannelCode: 'demo', abTestType: 17 },
    });
    const token = login.token;
    const match = await api<{ mayAuthProductList: { id: string }[] }>('/api/user/info/save', {
      token,
      body: {
        adChannelCode: 'demo',
        isHuaWeiPhone: false,
        applyLimit: 2,
        job: 1,
        payoffForm: 1,
        socialSecurity: 2,
        housingFund: 2,
        insurance: 2,
        houseProperty: 2,
        carProperty: 1,
        sesameCredit: 4,
        creditInvestigation: 1,
        realName: '张三',
        identity: '110101199003074514',
        workCity: '深圳市',
        workCityCode: '440300',
      },
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
    await context.addInitScript(
      (s: { token: string; uid: number; phone: string }) => {
        localStorage.setItem('ad_channel_code', 'demo');
        localStorage.setItem('TOKEN', s.token);
        localStorage.setItem('user_uid', String(s.uid));
        localStorage.setItem('user_phone', s.phone);
      },
      { token, uid: login.loginUser.uid, phone },
    );
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
