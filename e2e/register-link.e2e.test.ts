import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { phonePage, shot, unexpectedErrors } from './browser.ts';
import { useServerAndBrowser } from './harness.ts';

const e2e = useServerAndBrowser();

/** demo-link1's plan URL (apps/server/src/modules/channels/seed.ts, docs/demo.md "Demo channels"). */
const PLAN_URL = 'https://partner.example.com/apply';

async function outboxCode(phone: string): Promise<string> {
  const res = await fetch(`${e2e.server.url}/api/dev/sms-outbox?phone=${phone}`);
  const body = (await res.json()) as { data: { code: string }[] };
  return body.data[0]!.code;
}

/** Logs in on the landing page's card (submit "立即申请") with the code from the dev outbox. */
async function loginOnLanding(page: Page, phone: string) {
  await page.getByPlaceholder('请输入手机号').fill(phone);
  await page.getByText('获取验证码').click();
  await expect.poll(() => page.getByText('验证码已发送').count(), { timeout: 10_000 }).toBeGreaterThan(0);
  await page.getByPlaceholder('请输入验证码').fill(await outboxCode(phone));
  await page.getByText('我已阅读并同意').click();
  await page.getByRole('button', { name: '立即申请' }).click();
}

const bodyText = (page: Page) => page.evaluate(() => document.body.innerText);

describe('registerLink (issue 16.6)', () => {
  it('demo-link1: after login the page says the person registered, claims no submission, and leads to the plan URL', async () => {
    const { page, errors } = await phonePage(e2e.browser);
    // The partner's site is not visited: its requests are answered here, the page loads recorded.
    const partnerRequests: string[] = [];
    await page.route('https://partner.example.com/**', (route) => {
      if (route.request().isNavigationRequest()) partnerRequests.push(route.request().url());
      return route.fulfill({
        status: 200,
        contentType: 'text/html; charset=utf-8',
        body: '<!doctype html><meta charset="utf-8"><title>合作机构</title><p>合作机构页面</p>',
      });
    });

    await page.goto(`${e2e.server.url}/?adChannelCode=demo-link1`);
    await loginOnLanding(page, `139${String(Date.now()).slice(-8)}`);
    await page.waitForURL(/\/fill-information\/success\?.*registered=true/, { timeout: 15_000 });
    await page.getByText('注册成功', { exact: true }).waitFor();

    const text = await bodyText(page);
    expect(text).toContain('您已完成注册，点击前往合作机构继续申请');
    expect(text).not.toMatch(/提交成功|已提交至|申请已提交/);
    // Issue 44.16: nothing was applied for — not titled 申请结果, no lender will call.
    expect(await page.locator('.adm-nav-bar-title').innerText()).toBe('注册结果');
    await expect.poll(() => page.title()).toBe('注册结果');
    expect(text).not.toMatch(/申请结果|合作机构可能通过电话或短信与您联系/);
    const button = page.getByRole('button', { name: '前往合作机构继续申请' });
    expect(await button.count()).toBe(1);
    await shot(page, 'register-link-demo-link1');

    await button.click();
    await page.waitForURL(PLAN_URL, { timeout: 10_000 });
    expect(partnerRequests).toEqual([PLAN_URL]);
    expect(unexpectedErrors(errors)).toEqual([]);
  });

  it('a channel without a plan URL: registered, nothing submitted, no partner button', async () => {
    const { page, errors } = await phonePage(e2e.browser);
    // `demo` has no plan target (seed): the page must not invent one.
    await page.goto(`${e2e.server.url}/?adChannelCode=demo`);
    await page.waitForLoadState('networkidle');
    await page.goto(`${e2e.server.url}/fill-information/success?isSpecialListCity=false&registered=true`);
    await page.getByText('注册成功', { exact: true }).waitFor();
    const text = await bodyText(page);
    expect(text).toContain('尚未向任何机构提交借款申请');
    expect(text).not.toMatch(/提交成功|已提交至|申请已提交/);
    expect(await page.getByRole('button', { name: '前往合作机构继续申请' }).count()).toBe(0);
    await shot(page, 'register-link-no-plan');
    expect(unexpectedErrors(errors)).toEqual([]);
  });
});
