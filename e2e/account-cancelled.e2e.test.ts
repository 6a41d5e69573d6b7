import { describe, expect, it } from 'vitest';
import { phonePage, shot, unexpectedErrors } from './browser.ts';
import { seedSession } from './form.ts';
import { useServerAndBrowser } from './harness.ts';
import { apiCall, loginPerson } from './person.ts';

/**
 * Issue 44.17: after cancelling an account the person gets a confirmation that stays until they
 * press a button (what happened to their data, 返回首页), not 0.7 s of a toast and the landing.
 */
const e2e = useServerAndBrowser();

describe('account cancellation ends on a confirmation (issue 44.17)', () => {
  it('shows 账户已注销 with what happened to the data until 返回首页 is pressed', async () => {
    const person = await loginPerson(e2e.server.url, '136');
    const { page, context, errors } = await phonePage(e2e.browser);
    await seedSession(context, person, 'demo');
    await page.goto(`${e2e.server.url}/my/cancel-account`, { waitUntil: 'load' });
    await page.getByRole('heading', { name: '注销须知' }).waitFor();

    await page.getByRole('button', { name: '获取验证码' }).click();
    await expect.poll(() => page.getByText(/\d+s后重新获取/).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    // Newest first: the cancellation code (the login code is older).
    const sms = await apiCall<{ code: string }[]>(
      e2e.server.url,
      `/api/dev/sms-outbox?phone=${person.phone}`,
    );
    await page.getByPlaceholder('请输入验证码').fill(sms[0]!.code);
    await page.getByRole('button', { name: '确认注销' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '确认注销' }).click();

    const title = page.getByRole('heading', { name: '账户已注销' });
    await title.waitFor({ timeout: 10_000 });
    // It stays: no timer takes the person away.
    await page.waitForTimeout(3000);
    expect(await title.isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/my/cancel-account');
    // What happened to their data, in words.
    const body = (await page.locator('main').innerText()).replace(/\s+/g, '');
    expect(body).toContain('账户资料、申请记录已删除');
    expect(body).toContain('所有设备上的登录已失效');
    expect(body).toContain('没有机构获得过您的信息'); // this person shared with none
    expect(body).toContain('已获批或已放款的借款不受影响');
    await shot(page, 'account-cancelled');

    // The session is gone on the server too.
    await expect(apiCall(e2e.server.url, '/api/getLoginUserInfo', { token: person.token })).rejects.toThrow();

    await page.getByRole('button', { name: '返回首页' }).click();
    await page.waitForURL((url) => url.pathname === '/', { timeout: 10_000 });
    await page.getByPlaceholder('请输入手机号').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('TOKEN'))).toBeNull();
    expect(unexpectedErrors(errors)).toEqual([]);
    await context.close();
  });
});
