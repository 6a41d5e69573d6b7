/**
 * Issue 16.10: the credit process (linkType 3, demo-crm) shows one stepper with one list of steps on
 * each of its pages. Before, identity verification showed 身份认证 · 人脸识别 · 完善资料 · 借款申请 and the
 * credit-information form 身份认证 · 基本信息 · 联系人 · 居住单位 · 完成.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { phonePage, shot, unexpectedErrors } from './browser.ts';
import { useServerAndBrowser } from './harness.ts';
import { apiCall } from './person.ts';

const e2e = useServerAndBrowser();

const STEPS = ['实名认证', '人脸识别', '基本信息', '联系人', '居住单位', '借款申请'];

/** A new person logged in on demo-crm (credit open, face not passed). */
async function crmPerson() {
  const phone = `133${String(Date.now()).slice(-8)}`;
  await apiCall(e2e.server.url, '/api/login/sendPhoneVerifyCode', { body: { phone } });
  const [sms] = await apiCall<{ code: string }[]>(e2e.server.url, `/api/dev/sms-outbox?phone=${phone}`);
  const login = await apiCall<{ token: string; loginUser: { uid: number } }>(e2e.server.url, '/api/login', {
    body: { mobile: phone, code: sms!.code, adChannelCode: 'demo-crm', abTestType: 17 },
  });
  return { token: login.token, uid: login.loginUser.uid, phone };
}

/** The stepper's titles and the title of its current step (once the page knows the person's step). */
async function stepper(page: Page) {
  await page.locator('.adm-steps .adm-step-status-process').first().waitFor();
  return page.evaluate(() => {
    const all = Array.from(document.querySelectorAll('.adm-steps'));
    return {
      count: all.length,
      titles: Array.from(all[0]!.querySelectorAll('.adm-step-title')).map((t) => t.textContent?.trim()),
      current: all[0]!.querySelector('.adm-step-status-process .adm-step-title')?.textContent?.trim(),
    };
  });
}

describe('the credit process has one stepper', () => {
  it('identity verification, credit information and the application form show the same steps', async () => {
    const person = await crmPerson();
    const { page, errors, context } = await phonePage(e2e.browser);
    await context.addInitScript((p) => {
      localStorage.setItem('ad_channel_code', 'demo-crm');
      localStorage.setItem('TOKEN', p.token);
      localStorage.setItem('user_uid', String(p.uid));
      localStorage.setItem('user_phone', p.phone);
    }, person);

    await page.goto(`${e2e.server.url}/credit-process/identity-verification`);
    await page.getByText('拍摄身份证人像面').waitFor();
    expect(await stepper(page)).toEqual({ count: 1, titles: STEPS, current: '实名认证' });
    await shot(page, 'credit-steps-identity');

    // Face verification not passed yet: the wizard's page stands at the face step.
    await page.goto(`${e2e.server.url}/credit-process/credit-personal-infomation`);
    expect(await stepper(page)).toEqual({ count: 1, titles: STEPS, current: '人脸识别' });
    await shot(page, 'credit-steps-information');

    await page.goto(`${e2e.server.url}/credit-process/credit-application-form`);
    await page.getByText('填写借款申请').waitFor();
    expect(await stepper(page)).toEqual({ count: 1, titles: STEPS, current: '借款申请' });
    await shot(page, 'credit-steps-application');
    expect(unexpectedErrors(errors)).toEqual([]);
    await context.close();
  });
});
