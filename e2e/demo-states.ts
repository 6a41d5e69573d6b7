/**
 * The application form filled in the browser for the demo states of issue 16.9 (e2e/states.e2e.test.ts,
 * e2e/state-registered.e2e.test.ts): the profiles that reach them with the demo products.
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { choose, chooseCity, formItem, GOOD_ANSWERS } from './form.ts';

export interface Profile {
  answers: [string, string][];
  province: string;
  city: string;
  identity: string;
}

/** A logged-in person's form on the demo channel, filled with `p` and submitted; answers the save. */
export async function submitForm(page: Page, baseUrl: string, p: Profile): Promise<Match> {
  await page.goto(`${baseUrl}/fill-information`);
  await formItem(page, '借款金额').waitFor({ timeout: 15_000 });
  for (const [label, text] of p.answers) await choose(page, label, text);
  await chooseCity(page, p.province, p.city);
  await formItem(page, '真实姓名').locator('input').fill('张三');
  await formItem(page, '身份证号').locator('input').fill(p.identity);
  await page.locator('.adm-form-footer').getByText('我已阅读并同意').click();
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/user/info/save'));
  await page.locator('button[type=submit]').click();
  const body = (await (await saved).json()) as { code: number; data: Match };
  expect(body.code).toBe(200);
  return body.data;
}

export interface Offer {
  id: string;
  productName: string;
  linkType: number;
  thirdpartyTargetUrl: string | null;
}
export interface Match extends Offer {
  applyStatus: number | null;
  /** The lender (of the top offer; of the lender the person is registered with for applyStatus 2). */
  lender?: { legalName: string };
  mayAuthProductList: Offer[];
}

/** Over 50, a large amount, no contributions, assets or good credit: only the Lhasa product is left. */
export const LHASA_NOTHING_ELSE: Profile = {
  answers: [
    ['借款金额', '10-20万'],
    ['职业身份', '上班族'],
    ['工资发放形式', '银行代发'],
    ['社保', '无社保'],
    ['公积金', '无公积金'],
    ['商业保险', '无商业保险'],
    ['房产', '无房产'],
    ['车产', '无车产'],
    ['芝麻分', '无芝麻分'],
    ['信用记录', '1年内逾期3次以上'],
  ],
  province: '西藏自治区',
  city: '拉萨市',
  identity: '110101197003074515',
};

export const YINCHUAN: Profile = {
  answers: GOOD_ANSWERS,
  province: '宁夏回族自治区',
  city: '银川市',
  identity: '110101199003074514',
};

/** LHASA_NOTHING_ELSE in Xining: only the Xining product (a lender with a duplicate pre-check) is left. */
export const XINING_NOTHING_ELSE: Profile = { ...LHASA_NOTHING_ELSE, province: '青海省', city: '西宁市' };
