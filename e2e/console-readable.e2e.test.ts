/**
 * Issue 16 items 12–14 in Chromium (browser time zone UTC, so any UTC leak shows):
 * 12. a person's answers read as the H5's labels (借款额度 1-5万, not 2); 账号管理 times and the CSV
 *     file name are Shanghai time; the pager speaks Chinese (条/页, not "/ page");
 * 13. the dashboard counts people for logins and authorisations and says what each figure counts;
 *     the funnel holds only the steps every path passes — 挽留弹窗 sits beside it, no negative 流失;
 * 14. at 390 px the console has no sider and no floating menu trigger over the heading: a header with
 *     菜单 opens the menu in a drawer; /crm-login on a phone lands there.
 * Screenshots at 1280 and 390 px of the dashboard, funnel, user detail with a lead, and staff list.
 */
import { formatShanghai, shanghaiDay } from '@lm/shared/time';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, shot, unexpectedErrors } from './browser.ts';
import { apiCall, DEMO_FORM, loginPerson, type Person } from './person.ts';
import { newDataDir, type RunningServer, runCli, startServer } from './server.ts';

let server: RunningServer;
let browser: Browser;
const ADMIN = { phone: '13500000161', name: '管理员十六', password: 'issue sixteen console' };
let person: Person;
let leadId: number;
/** The console admin's token (for reading what the pages should show). */
let staffToken: string;
let registeredAt: string;

beforeAll(async () => {
  // The embedded database belongs to one process: create the console admin before the server starts.
  const dataDir = newDataDir();
  await runCli(
    [
      'apps/server/src/cli/admin-create.ts',
      '--phone',
      ADMIN.phone,
      '--name',
      ADMIN.name,
      '--role',
      'admin',
      '--password',
      ADMIN.password,
    ],
    { DATA_DIR: dataDir },
  );
  server = await startServer({ DELIVERY_WORKER: 'off' }, dataDir);
  browser = await launch();

  // A person: logs in, submits the form and authorises every product offered (one person, several leads).
  person = await loginPerson(server.url, '137');
  const match = await apiCall<{ id: string | null; mayAuthProductList: { id: string }[] }>(
    server.url,
    '/api/user/info/save',
    { token: person.token, body: DEMO_FORM },
  );
  const productIds = [...(match.id ? [match.id] : []), ...match.mayAuthProductList.map((p) => p.id)];
  expect(productIds.length).toBeGreaterThan(1);
  await apiCall(server.url, '/api/user/info/auth', {
    method: 'PUT',
    token: person.token,
    body: { productIds },
  });

  staffToken = (
    await apiCall<{ token: string }>(server.url, '/api/crm/admin/login', {
      body: { phone: ADMIN.phone, password: ADMIN.password },
    })
  ).token;
  const detail = await apiCall<{ user: { createdAt: string }; leads: { id: number }[] }>(
    server.url,
    `/api/admin/users/${person.uid}`,
    { token: staffToken },
  );
  leadId = detail.leads[0]!.id;
  registeredAt = detail.user.createdAt;

  // The H5's steps from one device: the whole path to the result page in one session, and in another
  // session only the retention popup (someone leaving) — more popups than results.
  const report = (sessionId: string, step: string) =>
    apiCall(server.url, '/api/report/event', {
      body: { step, sessionId, adChannelCode: 'demo', skin: 17, fingerprint: 'fp-issue16', source: 'H5' },
    });
  await fetch(
    `${server.url}/api/reportAdChannelClick?adChannelCode=demo&fingerprint=fp-issue16&abTestType=17`,
  );
  const path = ['visit_landing', 'get_verification_code', 'login', 'visit_form', 'submit_form'];
  for (const step of [...path, 'visit_authorization', 'authorize']) await report('s-issue16-a', step);
  await report('s-issue16-b', 'retention_popup');
  await fetch(
    `${server.url}/api/reportAdChannelClick?adChannelCode=demo&fingerprint=fp-issue16-2&abTestType=17`,
  );
  await apiCall(server.url, '/api/report/event', {
    body: {
      step: 'retention_popup',
      sessionId: 's-issue16-c',
      adChannelCode: 'demo',
      skin: 17,
      fingerprint: 'fp-issue16-2',
      source: 'H5',
    },
  });
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A console page at `width`, the browser in UTC (a UTC leak would show), logged in as the admin. */
async function consolePage(width: number) {
  const context = await browser.newContext({
    viewport: { width, height: width < 600 ? 844 : 900 },
    locale: 'zh-CN',
    timezoneId: 'UTC',
    acceptDownloads: true,
    ...(width < 600 ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()));
  await page.goto(`${server.url}/admin/login`);
  await page.getByText('密码登录').first().waitFor();
  await page
    .getByPlaceholder(/手机号/)
    .first()
    .fill(ADMIN.phone);
  await page.getByPlaceholder(/密码/).first().fill(ADMIN.password);
  await page
    .getByRole('button', { name: /登\s*录/ })
    .first()
    .click();
  await page.getByText(ADMIN.name).first().waitFor({ timeout: 15_000 });
  return { page, errors, context };
}

/** Nothing wider than the screen (no sideways scrolling of the whole page). */
async function pageFitsWidth(page: Page) {
  const width = page.viewportSize()!.width;
  return page.evaluate((w) => document.documentElement.scrollWidth <= w + 1, width);
}

describe('console: readable answers and times, people counted, a real funnel, usable on a phone', () => {
  it('at 1280 px: labels, Shanghai times, Chinese pager, people on the dashboard, the funnel and what is beside it', async () => {
    const { page, errors, context } = await consolePage(1280);

    // Dashboard: every figure says what it counts; logins and authorisations count the person once.
    await page.getByText('今日渠道点击').waitFor({ timeout: 15_000 });
    const figure = (key: string) => page.getByTestId(`figure-${key}`);
    await expect.poll(() => figure('logins').innerText()).toContain('按人计');
    expect(await figure('authorizations').innerText()).toContain('按人计');
    expect(await figure('clicks').innerText()).toContain('按设备计');
    expect(await figure('leads').innerText()).toContain('按条计');
    expect(await figure('logins').innerText()).toContain('一人多次登录只算一人');
    const value = async (key: string) =>
      Number((await figure(key).locator('.ant-statistic-content-value').innerText()).replace(/,/g, ''));
    expect(await value('logins')).toBe(1);
    expect(await value('registrations')).toBe(1);
    expect(await value('authorizations')).toBe(1);
    expect(await value('leads')).toBeGreaterThan(1);
    await shot(page, 'issue16-dashboard-1280');

    // Funnel: the steps every path passes, down to the lenders' 授信 and 放款 (issue 47.6); 挽留弹窗 (2 devices,
    // more than authorised) and the result page beside it.
    await page.goto(`${server.url}/admin/funnel`);
    const table = page.locator('.ant-table-tbody').first();
    await table.getByText('放款').waitFor({ timeout: 15_000 });
    const tableText = await table.innerText();
    expect(tableText).not.toContain('挽留弹窗');
    expect(tableText).not.toContain('二次授权');
    expect(tableText).not.toContain('访问结果页');
    expect(tableText).not.toMatch(/(^|\s)[-−]\d/);
    const side = page.getByTestId('funnel-side-steps');
    await expect.poll(() => side.innerText()).toContain('挽留弹窗');
    expect(await side.innerText()).toMatch(/挽留弹窗\s*2\s*人/);
    expect(await side.innerText()).toContain('不是每个人都会经过');
    expect(await side.innerText()).toContain('访问结果页');
    expect(await pageFitsWidth(page)).toBe(true);
    await page.getByLabel('转化漏斗图').locator('canvas').first().waitFor();
    await shot(page, 'issue16-funnel-1280');

    // User detail: the answers as the form showed them, times in Shanghai.
    await page.goto(`${server.url}/admin/leads/${person.uid}?lead=${leadId}`);
    const profile = page.locator('.ant-card', { hasText: '基本信息' });
    await profile.getByText('申请资料').waitFor({ timeout: 15_000 });
    const item = (label: string) =>
      profile.locator('.ant-descriptions-item', {
        has: page.locator('.ant-descriptions-item-label', { hasText: label }),
      });
    expect(await item('借款额度').innerText()).toContain('1-5万');
    expect(await item('职业身份').innerText()).toContain('上班族');
    expect(await item('芝麻分').innerText()).toContain('700分以上');
    expect(await item('信用记录').innerText()).toContain('信用良好，无逾期');
    expect(await item('是否华为手机').innerText()).toContain('否');
    expect(await item('注册时间').innerText()).toContain(formatShanghai(registeredAt));
    // The lead drawer: its own times in Shanghai, the shared fields named.
    const drawer = page.locator('.ant-drawer-content');
    await drawer.getByText('共享字段').waitFor({ timeout: 15_000 });
    expect(await drawer.innerText()).toContain('借款额度');
    await shot(page, 'issue16-lead-detail-1280');
    await page.goto(`${server.url}/admin/leads/${person.uid}`);
    await profile.getByText('申请资料').waitFor({ timeout: 15_000 });
    await shot(page, 'issue16-user-detail-1280');

    // People list: the pager in Chinese.
    await page.goto(`${server.url}/admin/leads`);
    await page.locator('.ant-pagination').first().waitFor({ timeout: 15_000 });
    const pager = await page.locator('.ant-pagination').first().innerText();
    expect(pager).toContain('条/页');
    expect(pager).not.toContain('page');
    // The date filter is antd's picker in Chinese, not the browser's own date field.
    expect(await page.locator('input[type="date"]').count()).toBe(0);
    expect(await page.getByPlaceholder('开始日期').count()).toBeGreaterThan(0);
    await page.getByPlaceholder('开始日期').first().click();
    const weekdays = page.locator('.ant-picker-dropdown .ant-picker-content thead').first();
    await weekdays.waitFor();
    expect(await weekdays.innerText()).toMatch(/一\s*二\s*三\s*四\s*五\s*六\s*日/);
    await page.keyboard.press('Escape');

    // 账号管理: times in Shanghai (the browser is in UTC), the CSV named after today in Shanghai.
    const staff = await apiCall<{ list: { name: string; createdAt: string }[] }>(
      server.url,
      '/api/admin/staff?page=1&pageSize=20',
      { token: staffToken },
    );
    const me = staff.list.find((s) => s.name === ADMIN.name)!;
    await page.goto(`${server.url}/admin/staff`);
    const row = page.locator('.ant-table-row', { hasText: ADMIN.name });
    await row.waitFor({ timeout: 15_000 });
    expect(await row.innerText()).toContain(formatShanghai(me.createdAt));
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: '导出 CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`后台账号-${shanghaiDay()}.csv`);
    await shot(page, 'issue16-staff-1280');

    expect(unexpectedErrors(errors)).toEqual([]);
    await context.close();
  });

  it('issue 44.11: the audit log, the channel list and the lead detail read in words, never codes or UTC', async () => {
    // The entries: a product's APR 2650 → 1800 bps and draft → published, a new product (its
    // company type and creation time), a channel with colour and flow flags.
    const partners = await apiCall<{ list: { id: number; code: string }[] }>(
      server.url,
      '/api/admin/partners?pageSize=50',
      { token: staffToken },
    );
    const partnerId = partners.list.find((p) => p.code === 'partner-a')!.id;
    const product = await apiCall<Record<string, unknown> & { id: number }>(
      server.url,
      '/api/admin/products',
      {
        token: staffToken,
        body: {
          code: 'readable-44',
          partnerId,
          productName: '可读贷',
          companyType: 'KAInstitution',
          institutionType: 1,
          linkType: 2,
          amountMinFen: 100_000,
          amountMaxFen: 5_000_000,
          termMinMonths: 3,
          termMaxMonths: 24,
          aprBps: 2650,
          rules: { citiesIn: ['440300'], ageMin: 22, jobs: ['employee'] },
          dailyCap: 100,
          priceFen: 5000,
          activeHours: { from: '09:00', to: '21:00' },
          sharedFields: ['realName', 'mobile'],
        },
      },
    );
    const edit = (patch: Record<string, unknown>) =>
      apiCall(server.url, `/api/admin/products/${product.id}`, {
        method: 'PUT',
        token: staffToken,
        body: {
          ...Object.fromEntries(
            [
              'partnerId',
              'productName',
              'companyType',
              'institutionType',
              'thirdpartyType',
              'partnerProductName',
              'linkType',
              'amountMinFen',
              'amountMaxFen',
              'termMinMonths',
              'termMaxMonths',
              'aprBps',
              'targetUrl',
              'rules',
              'dailyCap',
              'totalCap',
              'priority',
              'priceFen',
              'activeHours',
              'sharedFields',
            ].map((k) => [k, product[k]]),
          ),
          ...patch,
        },
      });
    await edit({ aprBps: 1800 });
    await apiCall(server.url, `/api/admin/products/${product.id}/status`, {
      method: 'PUT',
      token: staffToken,
      body: { status: 'published' },
    });
    await apiCall(server.url, '/api/admin/channels', {
      token: staffToken,
      body: {
        adChannelCode: 'readable-44',
        name: '可读渠道',
        linkType: 4,
        skin: 8,
        flags: ['purple', 'fenqile', 'baidu'],
        excludeCityCodes: ['440300'],
        allowedHosts: ['partner.example.com'],
      },
    });

    const { page, errors, context } = await consolePage(1280);
    const raw = (text: string) => ({
      isoTimes: text.match(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}[^\s]*/g) ?? [],
      camelCase: text.match(/\b[a-z]+[A-Z][A-Za-z]*\b/g) ?? [],
      codes:
        text.match(
          /\b(draft|published|paused|active|suspended|disabled|KAInstitution|RegionInstitution|purple|teal|halo|shallowBlue|channel_partner|route_code|system)\b/g,
        ) ?? [],
    });
    const clean = { isoTimes: [], camelCase: [], codes: [] };

    // 操作日志: every entry opened, before and after field by field.
    await page.goto(`${server.url}/admin/audit-log`);
    const table = page.locator('.ant-table-tbody').first();
    await table
      .getByText('可读贷')
      .first()
      .waitFor({ timeout: 15_000 })
      .catch(() => undefined);
    await expect.poll(() => table.locator('.ant-table-row').count(), { timeout: 15_000 }).toBeGreaterThan(3);
    const expanders = page.locator('.ant-table-row-expand-icon-collapsed');
    while ((await expanders.count()) > 0) await expanders.first().click();
    const text = await page.locator('.ant-layout-content').innerText();
    expect(text).toContain('综合年化利率：26.50% → 18.00%');
    expect(text).toContain('上架状态：草稿 → 已上架');
    expect(text).toContain('大机构');
    expect(text).toContain('皮肤8、紫色、分期乐流程、百度');
    expect(text).toContain('广东省深圳市');
    const created = await apiCall<{ createdAt: string }>(server.url, `/api/admin/products/${product.id}`, {
      token: staffToken,
    });
    expect(text).toContain(formatShanghai(created.createdAt, 'second'));
    expect(raw(text)).toEqual(clean);
    await shot(page, 'issue44-audit-log-1280');

    // 渠道管理: 功能标记 in words.
    await page.goto(`${server.url}/admin/channels?pageSize=50`);
    const rows = page.locator('.ant-table-tbody .ant-table-row');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBeGreaterThan(5);
    const headers = await page.locator('.ant-table-thead th').allInnerTexts();
    const flagsColumn = headers.findIndex((h) => h.trim() === '功能标记');
    const flagCells = await rows.evaluateAll(
      (trs, i) => trs.map((tr) => (tr.children[i] as HTMLElement | undefined)?.innerText ?? ''),
      flagsColumn,
    );
    const flagText = flagCells.join('\n');
    expect(flagText).toContain('紫色');
    expect(flagText).toContain('分期乐流程');
    expect(raw(flagText)).toEqual(clean);
    expect(flagText).not.toMatch(/fenqile|formprocess|haier|baidu|jufu|huanbei/);
    await shot(page, 'issue44-channels-1280');

    // The user detail: the skin the person logged in with, named in Chinese.
    await page.goto(`${server.url}/admin/leads/${person.uid}`);
    const profile = page.locator('.ant-card', { hasText: '基本信息' });
    await profile.getByText('申请资料').waitFor({ timeout: 15_000 });
    const skin = profile.locator('.ant-descriptions-item', {
      has: page.locator('.ant-descriptions-item-label', { hasText: '登录时的皮肤' }),
    });
    expect(await skin.innerText()).toContain('皮肤17');
    expect(raw(await profile.innerText())).toEqual(clean);
    await shot(page, 'issue44-user-detail-1280');

    expect(unexpectedErrors(errors)).toEqual([]);
    await context.close();
  });

  it('at 390 px: a header with 菜单 (no sider, no trigger over the heading), pages fit the width', async () => {
    const { page, errors, context } = await consolePage(390);
    await page.getByText('今日渠道点击').waitFor({ timeout: 15_000 });
    expect(await page.locator('.ant-layout-sider').count()).toBe(0);
    expect(await page.locator('.ant-layout-sider-zero-width-trigger').count()).toBe(0);
    const heading = await page.getByRole('heading', { name: '概览' }).boundingBox();
    const header = await page.locator('.ant-layout-header').boundingBox();
    expect(heading && header && heading.y >= header.y + header.height).toBe(true);
    expect(await pageFitsWidth(page)).toBe(true);
    await shot(page, 'issue16-dashboard-390');

    // The menu: a drawer from the header button; choosing a page closes it.
    await page.getByRole('button', { name: '打开菜单' }).click();
    const menu = page.locator('.ant-drawer .ant-menu');
    await menu.getByText('账号管理').waitFor();
    await page.waitForTimeout(400); // the drawer's slide-in, for the picture only
    await shot(page, 'issue16-menu-390');
    await menu.getByText('转化漏斗').click();
    await page.waitForURL(/\/admin\/funnel/);
    await page.locator('.ant-table-tbody').first().getByText('放款').waitFor({ timeout: 15_000 });
    await expect.poll(() => page.locator('.ant-drawer-open').count()).toBe(0);
    expect(await pageFitsWidth(page)).toBe(true);
    await page.getByLabel('转化漏斗图').locator('canvas').first().waitFor();
    await shot(page, 'issue16-funnel-390');

    await page.goto(`${server.url}/admin/leads/${person.uid}?lead=${leadId}`);
    await page.locator('.ant-drawer-content').getByText('共享字段').waitFor({ timeout: 15_000 });
    await shot(page, 'issue16-lead-detail-390');
    await page.goto(`${server.url}/admin/leads/${person.uid}`);
    await page.getByText('1-5万').first().waitFor({ timeout: 15_000 });
    expect(await pageFitsWidth(page)).toBe(true);
    await shot(page, 'issue16-user-detail-390');

    await page.goto(`${server.url}/admin/staff`);
    await page.locator('.ant-table-row', { hasText: ADMIN.name }).waitFor({ timeout: 15_000 });
    expect(await pageFitsWidth(page)).toBe(true);
    await shot(page, 'issue16-staff-390');

    expect(unexpectedErrors(errors)).toEqual([]);
    await context.close();
  });

  it('/crm-login on a phone lands in the console with the phone layout', async () => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 2,
      locale: 'zh-CN',
    });
    const page = await context.newPage();
    await page.goto(`${server.url}/crm-login`);
    await page.getByText('密码登录').first().click();
    await page.getByPlaceholder('请输入员工手机号').fill(ADMIN.phone);
    await page.getByPlaceholder('请输入密码').fill(ADMIN.password);
    await page.getByRole('button', { name: /登\s*录/ }).click();
    await page.waitForURL(/\/admin\/?$/, { timeout: 15_000 });
    await page.getByRole('button', { name: '打开菜单' }).waitFor({ timeout: 15_000 });
    await page.getByRole('heading', { name: '概览' }).waitFor();
    expect(await page.locator('.ant-layout-sider-zero-width-trigger').count()).toBe(0);
    await shot(page, 'issue16-crm-login-390');
    await context.close();
  });
});
