import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, phonePage, shot, unexpectedErrors } from './browser.ts';
import { apiCall, DEMO_FORM, loginPerson } from './person.ts';
import { newDataDir, type RunningServer, runCli, startServer } from './server.ts';

let server: RunningServer;
let browser: Browser;

const OPERATOR = { phone: '13500000021', name: '运营小漏', password: 'operator funnel secret' };
const ADMIN = { phone: '13500000022', name: '管理员小管', password: 'admin funnel secret' };
const PARTNER = { phone: '13500000023', name: '渠道方小渠', password: 'partner funnel secret' };
const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);

beforeAll(async () => {
  // The embedded database belongs to one process: create the console accounts before the server starts.
  const dataDir = newDataDir();
  for (const [who, role] of [
    [OPERATOR, 'operator'],
    [ADMIN, 'admin'],
  ] as const) {
    const out = await runCli(
      [
        'apps/server/src/cli/admin-create.ts',
        '--phone',
        who.phone,
        '--name',
        who.name,
        '--role',
        role,
        '--password',
        who.password,
      ],
      { DATA_DIR: dataDir },
    );
    expect(out).toContain(`Created staff account`);
    expect(out).toContain(`role=${role}`);
  }
  server = await startServer({}, dataDir);
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function outboxCode(phone: string): Promise<string> {
  const res = await fetch(`${server.url}/api/dev/sms-outbox?phone=${phone}`);
  const body = (await res.json()) as { data: { code: string }[] };
  return body.data[0]!.code;
}

async function consolePage() {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'zh-CN' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()));
  return { page, errors, context };
}

async function consoleLogin(page: Page, who: { phone: string; password: string }) {
  await page.goto(`${server.url}/admin/login`);
  await page
    .getByPlaceholder(/手机号/)
    .first()
    .fill(who.phone);
  await page.getByPlaceholder(/密码/).first().fill(who.password);
  await page
    .getByRole('button', { name: /登\s*录/ })
    .first()
    .click();
  await page.waitForURL((url) => !url.pathname.endsWith('/login'), { timeout: 15_000 });
}

/**
 * Issue 47.6: a person of channel demo consents to the lenders offered (the H5 reports 授权 signed in, as it
 * does after the consent); the sandbox lenders receive the leads; one approves and funds, a second funds too.
 */
async function personApprovedAndFunded() {
  const person = await loginPerson(server.url, '136');
  const match = await apiCall<{ id: string | null; mayAuthProductList: { id: string }[] }>(
    server.url,
    '/api/user/info/save',
    { token: person.token, body: DEMO_FORM },
  );
  const productIds = [...(match.id ? [match.id] : []), ...match.mayAuthProductList.map((p) => p.id)];
  await apiCall(server.url, '/api/user/info/auth', {
    method: 'PUT',
    token: person.token,
    body: { productIds },
  });
  await apiCall(server.url, '/api/report/event', {
    token: person.token,
    body: {
      step: 'authorize',
      sessionId: `s-outcomes-${person.uid}`,
      adChannelCode: 'demo',
      skin: 17,
      fingerprint: `fp-outcomes-${person.uid}`,
      source: 'H5',
    },
  });
  // The delivery worker sends the leads to the sandbox lenders; each lists the lead ids it received.
  const received = async () => {
    const all: { code: string; leadId: string }[] = [];
    for (const letter of 'abcdefgh') {
      const code = `partner-${letter}`;
      const list = await apiCall<{ leadId: string }[]>(server.url, `/api/dev/partner-sandbox/${code}/leads`);
      all.push(...list.map((l) => ({ code, leadId: l.leadId })));
    }
    return all;
  };
  await expect.poll(async () => (await received()).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
  const [first, second] = await received();
  const outcome = (lead: { code: string; leadId: string }, body: object) =>
    apiCall(server.url, `/api/dev/partner-sandbox/${lead.code}/outcomes`, {
      body: { leadId: lead.leadId, ...body },
    });
  await outcome(first!, { status: 'approved', limitFen: 2_000_000 });
  await outcome(first!, { status: 'funded', amountFen: 1_500_000, termMonths: 12 });
  await outcome(second!, { status: 'funded', amountFen: 800_000, termMonths: 6 });
}

/** The number in the 人数 column of a step's row in the steps table. */
async function stepCount(page: Page, label: string): Promise<number> {
  // The step's own row: 授权 is also in 访问授权页.
  const row = page
    .locator('.ant-table-row')
    .filter({ has: page.locator('td:first-child', { hasText: new RegExp(`^${label}$`) }) })
    .first();
  const text = await row.locator('td').nth(1).innerText();
  return Number(text.replace(/,/g, ''));
}

describe('console funnel in Chromium', () => {
  it("a scripted H5 journey's steps appear in the operator's funnel for that channel and today", async () => {
    // A person arrives from channel demo's ad, asks for a code and logs in; the H5 reports the steps.
    const { page: h5, errors: h5Errors } = await phonePage(browser);
    // The H5 reports the click and the landing visit once the device fingerprint is ready (on the first
    // interaction or a few seconds after load): the person reads the landing page for a moment.
    const reported = (what: string) =>
      h5.waitForResponse((r) => r.url().includes(what) && r.ok(), { timeout: 20_000 });
    const click = reported('/api/reportAdChannelClick');
    const landingEvents = reported('/api/report/event');
    await h5.goto(`${server.url}/?adChannelCode=demo`);
    await Promise.all([click, landingEvents]);
    await h5.waitForLoadState('networkidle');
    await h5.goto(`${server.url}/login`);
    const phone = `137${String(Date.now()).slice(-8)}`;
    await h5.getByPlaceholder('请输入手机号').fill(phone);
    await h5.getByText('获取验证码').click();
    await expect.poll(() => h5.getByText('验证码已发送').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await h5.getByPlaceholder('请输入验证码').fill(await outboxCode(phone));
    await h5.getByText('我已阅读并同意').click();
    await h5.getByRole('button', { name: '登录' }).click();
    await h5.waitForURL(/\/fill-information(\?|$)/, { timeout: 15_000 });
    await h5.waitForLoadState('networkidle');
    expect(unexpectedErrors(h5Errors)).toEqual([]);
    await personApprovedAndFunded();

    const { page, errors } = await consolePage();
    await consoleLogin(page, OPERATOR);
    await page.getByText('今日渠道点击').waitFor({ timeout: 15_000 });
    await shot(page, 'console-dashboard');

    await page.goto(`${server.url}/admin/funnel?from=${today}&to=${today}&channels=demo`);
    await page.getByText('各步骤明细').waitFor();
    await expect.poll(() => stepCount(page, '登录'), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    expect(await stepCount(page, '渠道点击')).toBeGreaterThanOrEqual(1);
    expect(await stepCount(page, '访问落地页')).toBeGreaterThanOrEqual(1);
    expect(await stepCount(page, '获取验证码')).toBeGreaterThanOrEqual(1);
    expect(await stepCount(page, '访问表单')).toBeGreaterThanOrEqual(1);
    // Issue 47.6: after 授权, the lenders' 授信 and 放款 — one person, though two lenders funded them.
    expect(await stepCount(page, '授权')).toBe(1);
    expect(await stepCount(page, '授信')).toBe(1);
    expect(await stepCount(page, '放款')).toBe(1);
    expect(await page.getByTestId('funnel-side-steps').innerText()).toContain('访问结果页');
    await page.getByRole('img', { name: '转化漏斗图' }).locator('canvas').waitFor();
    await page.getByRole('img', { name: '每日转化趋势图' }).locator('canvas').waitFor();
    await shot(page, 'console-funnel');
    await page.getByText('各步骤明细').scrollIntoViewIfNeeded();
    await shot(page, 'issue47-funnel-steps-table');

    // The CSV export of the steps table downloads a file named after the range and channel.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: '导出 CSV' }).first().click(),
    ]);
    expect(download.suggestedFilename()).toBe(`转化漏斗_${today}_${today}_demo.csv`);

    await page.getByRole('tab', { name: '渠道对比' }).click();
    const demoRow = page.locator('.ant-table-row', { hasText: '（demo）' }).first();
    await demoRow.waitFor();
    const header = await page.locator('.ant-table-thead th').allInnerTexts();
    const cells = await demoRow.locator('td').allInnerTexts();
    const cell = (title: string) => cells[header.findIndex((h) => h.trim() === title)];
    expect([cell('授权'), cell('授信'), cell('放款')]).toEqual(['1', '1', '1']);
    await shot(page, 'console-funnel-channels');

    await page.getByRole('tab', { name: 'A/B 测试' }).click();
    await page
      .getByText('skin17 · 点击', { exact: false })
      .or(page.getByText('（对照组）'))
      .first()
      .waitFor();
    await shot(page, 'console-funnel-ab');
    expect(errors).toEqual([]);
  });

  it('an admin creates a channel-partner login that sees only its channel', async () => {
    const { page: admin } = await consolePage();
    await consoleLogin(admin, ADMIN);
    await admin.goto(`${server.url}/admin/staff`);
    await admin.getByRole('button', { name: '新建账号' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByPlaceholder('登录用的手机号').fill(PARTNER.phone);
    await dialog.getByPlaceholder('姓名或合作方名称').fill(PARTNER.name);
    await dialog.locator('label', { hasText: '渠道合作方' }).click();
    await dialog.locator('.ant-select').click();
    await admin.keyboard.type('demo-fenqile');
    await admin.locator('.ant-select-item-option', { hasText: '（demo-fenqile）' }).click();
    await admin.keyboard.press('Escape');
    await dialog.getByPlaceholder('至少10个字符').fill(PARTNER.password);
    await shot(admin, 'console-staff-create');
    await dialog.getByRole('button', { name: /创\s*建/ }).click();
    await admin.getByText('账号已创建').waitFor();
    await admin.locator('.ant-table-row', { hasText: PARTNER.name }).getByText('demo-fenqile').waitFor();
    await shot(admin, 'console-staff');

    // A second channel for the partner: demo, where the journey above happened.
    await admin
      .locator('.ant-table-row', { hasText: PARTNER.name })
      .getByRole('button', { name: '编辑' })
      .click();
    const edit = admin.getByRole('dialog');
    await edit.locator('.ant-select').click();
    await admin.keyboard.type('demo');
    await admin.locator('.ant-select-item-option', { hasText: /（demo）$/ }).click();
    await admin.keyboard.press('Escape');
    await edit.getByRole('button', { name: /保\s*存/ }).click();
    await admin.getByText('账号已保存').waitFor();

    const { page, errors } = await consolePage();
    await consoleLogin(page, PARTNER);
    // A channel partner lands on the funnel; the menu has only its channels' funnel and statements.
    await page.waitForURL(/\/admin\/funnel/, { timeout: 15_000 });
    await page.getByText('渠道合作方视图').waitFor();
    await expect.poll(() => page.locator('.ant-menu-item').allInnerTexts()).toEqual(['转化漏斗', '结算对账']);
    await page.goto(`${server.url}/admin/funnel?from=${today}&to=${today}`);
    await expect.poll(() => stepCount(page, '登录'), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);

    await page.getByLabel('渠道').first().click();
    const options = page.locator('.ant-select-item-option');
    await expect.poll(() => options.count()).toBe(2);
    expect((await options.allInnerTexts()).sort()).toEqual(
      expect.arrayContaining([
        expect.stringContaining('（demo）'),
        expect.stringContaining('（demo-fenqile）'),
      ]),
    );
    await page.keyboard.press('Escape');
    await shot(page, 'console-funnel-partner');

    await page.getByRole('tab', { name: '渠道对比' }).click();
    await expect.poll(() => page.locator('.ant-table-row').count()).toBe(2);

    // Issue 44.19: staff pages opened by their address send the partner to its funnel — no frame saying
    // 没有权限执行此操作, no staff-only call made (the server would answer 403).
    const forbidden: string[] = [];
    page.on('response', (r) => {
      if (r.status() === 403) forbidden.push(new URL(r.url()).pathname);
    });
    for (const [path, label] of [
      ['/admin/channels', '渠道管理'],
      ['/admin/leads', '用户与线索'],
      ['/admin/audit-log', '操作日志'],
      ['/admin/channels/1', '渠道管理'],
    ] as const) {
      await page.goto(`${server.url}${path}`);
      await page.waitForURL(/\/admin\/funnel$/, { timeout: 15_000 });
      await page.getByText(`您的账号不能查看「${label}」，已为您打开「转化漏斗」`).first().waitFor();
      await page.locator('.ant-table-row', { hasText: '登录' }).first().waitFor({ timeout: 15_000 });
      expect(await page.getByText('没有权限执行此操作').count()).toBe(0);
      if (path === '/admin/channels') await shot(page, 'issue44-partner-sent-to-funnel');
    }
    expect(forbidden).toEqual([]);

    expect(errors).toEqual([]);

    // Another channel's figures are refused by the server (the browser logs these two 403s).
    const status = await page.evaluate(async () => {
      const token = localStorage.getItem('ADMIN_TOKEN') ?? '';
      const res = await fetch('/api/admin/funnel?channelCode=demo-skin8', {
        headers: { accessToken: token },
      });
      const staff = await fetch('/api/admin/staff', { headers: { accessToken: token } });
      return [res.status, staff.status];
    });
    expect(status).toEqual([403, 403]);
  });
});
