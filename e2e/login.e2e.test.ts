import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { phonePage, SCREENSHOT_DIR, shot, unexpectedErrors } from './browser.ts';
import { useServerAndBrowser } from './harness.ts';
import { runCli, startServer } from './server.ts';

const e2e = useServerAndBrowser();

async function outboxCode(phone: string): Promise<string> {
  const res = await fetch(`${e2e.server.url}/api/dev/sms-outbox?phone=${phone}`);
  const body = (await res.json()) as { data: { code: string }[] };
  return body.data[0]!.code;
}

describe('H5 login journey in Chromium', () => {
  it('serves pre-rendered landing and login pages whose only inline script the CSP allows by hash', async () => {
    const landing = await fetch(`${e2e.server.url}/`, { headers: { 'accept-encoding': 'br' } });
    expect(landing.headers.get('content-type')).toContain('text/html');
    const html = await landing.text();
    expect(html).toContain('最高可借');
    expect(html).toContain('data-shell="/"');
    const csp = landing.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
    const login = await (await fetch(`${e2e.server.url}/getQuota?adChannelCode=demo`)).text();
    expect(login).toContain('data-shell="/login"');
    expect(login).toContain('手机号登录');
    // Assets are sent pre-compressed. (The entry waits in the page's <template id="lm-app">.)
    const asset = /"\/(assets\/index-[^"]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeDefined();
    const js = await fetch(`${e2e.server.url}/${asset}`, { headers: { 'accept-encoding': 'br' } });
    expect(js.headers.get('content-encoding')).toBe('br');
  });

  it('validates, sends a code, logs in, shows the account, logs out', async () => {
    const { page, errors } = await phonePage(e2e.browser);
    await page.goto(`${e2e.server.url}/login?adChannelCode=demo`);
    await page.getByRole('button', { name: /登录/ }).first().waitFor();
    await shot(page, 'web-login');

    // Empty phone, then a malformed one: the spec's toasts.
    await page.getByText('获取验证码').click();
    await expect.poll(() => page.getByText('请输入手机号', { exact: true }).count()).toBeGreaterThan(0);
    await page.getByPlaceholder('请输入手机号').fill('12345678901');
    await page.getByText('获取验证码').click();
    await expect.poll(() => page.getByText('手机号格式不正确').count()).toBeGreaterThan(0);

    const phone = `137${String(Date.now()).slice(-8)}`;
    await page.getByPlaceholder('请输入手机号').fill(phone);
    await page.getByText('获取验证码').click();
    await expect.poll(() => page.getByText('验证码已发送').count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByText(/\d+s|\d+秒/).count()).toBeGreaterThan(0);
    await shot(page, 'web-login-code-sent');
    // A reload (or a tap on a link and back) finds the phone where it was and the button still counting.
    await page.reload();
    await expect.poll(() => page.getByPlaceholder('请输入手机号').inputValue()).toBe(phone);
    await expect.poll(() => page.getByText(/\d+s|\d+秒/).count()).toBeGreaterThan(0);

    await page.getByPlaceholder('请输入验证码').fill(await outboxCode(phone));
    await page.getByRole('button', { name: '登录' }).click();
    await expect.poll(() => page.getByText('请先阅读并同意协议').count()).toBeGreaterThan(0);
    // The agreements open with their full text, and back returns to the form.
    await page.getByText('《注册协议》').click();
    await page.getByText('一、服务内容').waitFor();
    await shot(page, 'web-register-agreement');
    await page.goBack();
    await page.getByPlaceholder('请输入验证码').waitFor();
    expect(await page.getByPlaceholder('请输入手机号').inputValue()).toBe(phone);
    // The privacy policy agreed to here names the ad platforms conversions are reported to (issue 47.7;
    // version 2026-12-06, in force from that day), and its text wraps within the phone's width.
    await page.getByText('《隐私政策》').click();
    const adReporting = page.locator('section', {
      has: page.getByRole('heading', { name: '六、广告效果回传' }),
    });
    await adReporting.waitFor();
    expect(await page.getByText(/^版本：2026-12-06/).count()).toBe(1);
    const adText = await adReporting.innerText();
    for (const company of [
      '北京巨量引擎网络技术有限公司',
      '北京快手广告有限公司',
      '北京百度网讯科技有限公司',
      '深圳市腾讯计算机系统有限公司',
    ]) {
      expect(adText).toContain(company);
    }
    expect(adText).toContain('不会向广告平台发送您的手机号码、姓名、身份证号码');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    // The login form's toast (no tick yet) has gone before the picture is taken.
    await page.getByText('请先阅读并同意协议').waitFor({ state: 'hidden' });
    await shot(page, 'web-privacy-agreement');
    await adReporting.screenshot({ path: resolve(SCREENSHOT_DIR, 'web-privacy-agreement-ad-reporting.png') });
    await page.goBack();
    await page.getByPlaceholder('请输入验证码').waitFor();
    expect(await page.getByPlaceholder('请输入手机号').inputValue()).toBe(phone);
    if (!(await page.getByPlaceholder('请输入验证码').inputValue())) {
      await page.getByPlaceholder('请输入验证码').fill(await outboxCode(phone));
    }
    await page.getByText('我已阅读并同意').click();
    await page.getByRole('button', { name: '登录' }).click();

    // The default flow sends a new person to the application form (spec §4).
    await page.waitForURL(/\/fill-information/, { timeout: 10_000 });
    await page.goto(`${e2e.server.url}/my`);
    const masked = `${phone.slice(0, 3)}****${phone.slice(7)}`;
    await page.getByText(masked).first().waitFor();
    await shot(page, 'web-my');
    expect(await page.evaluate(() => localStorage.getItem('TOKEN'))).toBeTruthy();
    expect(await page.evaluate(() => localStorage.getItem('ad_channel_code'))).toBe('demo');

    await page.getByText('退出登录').click();
    // The question comes in its own chunk (ADR 068): wait for it, then confirm inside it.
    const dialog = page.locator('.adm-dialog-body');
    await dialog.getByText('确定要退出登录吗？').waitFor({ timeout: 10_000 });
    await dialog.getByRole('button', { name: '确定' }).click();
    await page.waitForURL(/\/login/, { timeout: 10_000 });
    expect(await page.evaluate(() => localStorage.getItem('TOKEN'))).toBeNull();
    expect(unexpectedErrors(errors)).toEqual([]);
  });

  it('sends a person whose session ended to /getQuota carrying the channel code', async () => {
    const { page } = await phonePage(e2e.browser);
    const phone = `136${String(Date.now()).slice(-8)}`;
    await fetch(`${e2e.server.url}/api/login/sendPhoneVerifyCode`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ phone }),
    });
    const res = await fetch(`${e2e.server.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ phone, code: await outboxCode(phone) }),
    });
    const token = ((await res.json()) as { data: { token: string } }).data.token;
    await page.goto(`${e2e.server.url}/login?adChannelCode=demo`);
    // The app has started and kept the link's channel (the server's page paints before it runs).
    await expect.poll(() => page.evaluate(() => localStorage.getItem('ad_channel_code'))).toBe('demo');
    await page.evaluate((t) => localStorage.setItem('TOKEN', t), token);
    // The session ends elsewhere (logout on another tab), then the page calls the API with it.
    await fetch(`${e2e.server.url}/api/logout`, { method: 'POST', headers: { accessToken: token } });
    await page.goto(`${e2e.server.url}/my`);
    await page.waitForURL(/\/getQuota\?adChannelCode=demo/, { timeout: 10_000 });
    await expect.poll(() => page.getByText('授权已过期，请重新登录').count()).toBeGreaterThan(0);
    await shot(page, 'web-session-expired');
    expect(await page.evaluate(() => localStorage.getItem('TOKEN'))).toBeNull();
  });

  it('serves the console at /admin and logs a staff member in', async () => {
    // The embedded database belongs to one process: create the staff member while the server is down.
    // SIGTERM finishes requests in flight and exits cleanly.
    expect(await e2e.server.stop()).toBe(0);
    const staffPhone = '13500000001';
    await runCli(
      [
        'apps/server/src/cli/admin-create.ts',
        '--phone',
        staffPhone,
        '--name',
        '运营小王',
        '--role',
        'operator',
        '--password',
        'correct horse battery',
      ],
      {
        DATA_DIR: e2e.server.dataDir,
      },
    );
    e2e.server = await startServer({}, e2e.server.dataDir);

    const { page, errors } = await phonePage(e2e.browser);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${e2e.server.url}/admin/`);
    await page.getByText('密码登录').first().waitFor();
    await shot(page, 'admin-login');
    await page
      .getByPlaceholder(/手机号/)
      .first()
      .fill(staffPhone);
    await page.getByPlaceholder(/密码/).first().fill('wrong password');
    await page
      .getByRole('button', { name: /登\s*录/ })
      .first()
      .click();
    await expect.poll(() => page.getByText('登录名或密码错误').count()).toBeGreaterThan(0);
    await page.getByPlaceholder(/密码/).first().fill('correct horse battery');
    await page
      .getByRole('button', { name: /登\s*录/ })
      .first()
      .click();
    await page.getByText('运营小王').first().waitFor({ timeout: 10_000 });
    await expect
      .poll(async () => (await page.getByText('operator').count()) + (await page.getByText('运营').count()))
      .toBeGreaterThan(0);
    await shot(page, 'admin-dashboard');
    // The wrong password answers 401 (an expected failed request that the e2e.browser logs).
    expect(errors.filter((e) => !e.includes('401'))).toEqual([]);
  });
});
