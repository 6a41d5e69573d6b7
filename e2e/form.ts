/**
 * Helpers for journeys on the application form (apps/web/src/features/application-form/components/application-form.tsx): the
 * questions by their label, a Selector option, the city picker, and a person's session put into the
 * browser once (a later logout or re-login of the page is not undone on reload).
 */
import type { BrowserContext, Page, Response } from 'playwright-core';
import { expect } from 'vitest';
import type { Person } from './person.ts';

/** A RegExp matching `text` exactly (escaped). */
export const exact = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

export function formItem(page: Page, label: string) {
  return page
    .locator('.adm-form-item')
    .filter({ has: page.locator('.adm-form-item-label', { hasText: exact(label) }) });
}

/** The Selector option `option` of question `label`. */
export function option(page: Page, label: string, text: string) {
  return formItem(page, label).locator('.adm-selector-item', { hasText: exact(text) });
}

/** Picks an option (a tap on the chosen option would clear it: skipped). */
export async function choose(page: Page, label: string, text: string) {
  const item = option(page, label, text);
  const cls = (await item.getAttribute('class')) ?? '';
  if (!cls.includes('adm-selector-item-active')) await item.click();
}

export async function isChosen(page: Page, label: string, text: string): Promise<boolean> {
  return ((await option(page, label, text).getAttribute('class')) ?? '').includes('adm-selector-item-active');
}

/** Province → city in the cascade picker. */
export async function chooseCity(page: Page, province: string, city: string) {
  await formItem(page, '工作城市').locator('button').click();
  const columns = page.locator('.adm-picker-view-column');
  const item = (col: number, text: string) =>
    columns.nth(col).locator('.adm-picker-view-column-item', { hasText: exact(text) });
  await expect.poll(() => item(0, province).count(), { timeout: 10_000 }).toBeGreaterThan(0);
  // A tap while the picker is still opening (a busy machine, the legacy build) can be lost: tapped again
  // until the province's cities show, for up to 10 s.
  await expect
    .poll(
      async () => {
        if ((await item(1, city).count()) > 0) return true;
        await item(0, province).first().dispatchEvent('click');
        return (await item(1, city).count()) > 0;
      },
      { timeout: 10_000, interval: 500 },
    )
    .toBe(true);
  await item(1, city).first().dispatchEvent('click');
  await page.waitForTimeout(300);
  await page.locator('.adm-picker-header-button', { hasText: '确定' }).click();
  await page.locator('.adm-picker-header').waitFor({ state: 'hidden' });
  await expect.poll(() => formItem(page, '工作城市').locator('button').innerText()).toContain(city);
}

/** Answers of a person every demo lender takes (salaried, contributions, good credit). */
export const GOOD_ANSWERS: [string, string][] = [
  ['借款金额', '1-5万'],
  ['职业身份', '上班族'],
  ['工资发放形式', '银行代发'],
  ['社保', '缴纳6个月以上'],
  ['公积金', '缴纳6个月以上'],
  ['商业保险', '缴纳1年以上'],
  ['房产', '无房产'],
  ['车产', '无车产'],
  ['芝麻分', '700分以上'],
  ['信用记录', '信用良好，无逾期'],
];

/**
 * The application form answered with GOOD_ANSWERS (Guangzhou, 张三 with a valid ID number), its agreements
 * ticked and submitted: the answer of POST /api/user/info/save.
 */
export async function submitGoodForm(page: Page): Promise<Response> {
  for (const [label, text] of GOOD_ANSWERS) await choose(page, label, text);
  await chooseCity(page, '广东省', '广州市');
  await formItem(page, '真实姓名').locator('input').fill('张三');
  await formItem(page, '身份证号').locator('input').fill('110101199003074514');
  await page.locator('.adm-form-footer').getByText('我已阅读并同意').click();
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/user/info/save'));
  await page.locator('button[type=submit]').click();
  return saved;
}

export const input = (page: Page, label: string) => formItem(page, label).locator('input');

/**
 * The person's session as the H5 stores it at login, put into the browser before the first page of
 * `context` loads, once: a logout (1005) or a new login in the page is not undone by a reload.
 */
export async function seedSession(
  context: BrowserContext,
  person: Person,
  adChannelCode: string,
): Promise<void> {
  await context.addInitScript(
    ([p, code]) => {
      if (localStorage.getItem('e2e-seeded')) return;
      localStorage.setItem('e2e-seeded', '1');
      localStorage.setItem('ad_channel_code', code);
      localStorage.setItem('TOKEN', p.token);
      localStorage.setItem('user_uid', String(p.uid));
      localStorage.setItem('user_phone', p.phone);
    },
    [person, adChannelCode] as const,
  );
}
