import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { phonePage, shot, unexpectedErrors } from './browser.ts';
import { choose, chooseCity, formItem, input, isChosen, seedSession } from './form.ts';
import { useServerAndBrowser } from './harness.ts';
import { apiCall, loginPerson, type Person } from './person.ts';

/**
 * Issue 16.3: what a person types on the application form survives a reload, a back-and-forward, a
 * network gap and a crash of the tab: kept on the device at once, autosaved to the server
 * (POST /api/user/info/tempSave) shortly after, restored when the form opens; a wizard resumes at its
 * step.
 */
const e2e = useServerAndBrowser();

const NAME = '张三';
const ID = '110101199003074514';

interface ShownDraft {
  applyLimit?: number;
  job?: number;
  sesameCredit?: number;
  workCity?: string;
  realName?: string;
  identity?: string;
}

const serverDraft = (p: Person) =>
  apiCall<ShownDraft>(e2e.server.url, '/api/user/info/form/show', { token: p.token });

/** Records the autosaves of `page` (request bodies, and the answers' envelope codes). */
function recordTempSaves(page: Page) {
  const bodies: Record<string, unknown>[] = [];
  const codes: number[] = [];
  page.on('request', (r: Request) => {
    if (r.url().endsWith('/api/user/info/tempSave')) bodies.push(r.postDataJSON() as Record<string, unknown>);
  });
  page.on('response', async (r) => {
    if (!r.url().endsWith('/api/user/info/tempSave')) return;
    try {
      codes.push(((await r.json()) as { code: number }).code);
    } catch {
      codes.push(-1);
    }
  });
  return { bodies, codes };
}

async function openForm(code: string, path: string) {
  const person = await loginPerson(e2e.server.url);
  const { page, context, errors } = await phonePage(e2e.browser);
  await seedSession(context, person, code);
  const saves = recordTempSaves(page);
  await page.goto(`${e2e.server.url}${path}?adChannelCode=${code}`);
  await formItem(page, '借款金额').waitFor({ timeout: 15_000 });
  return { person, page, context, errors, saves };
}

/** The answers of the journeys: three options, the city, the name and ID number. */
async function typeAnswers(page: Page) {
  await choose(page, '借款金额', '1-5万');
  await choose(page, '职业身份', '上班族');
  await choose(page, '芝麻分', '700分以上');
  await chooseCity(page, '广东省', '广州市');
  await input(page, '真实姓名').fill(NAME);
  await input(page, '身份证号').fill(ID);
}

async function expectAnswersBack(page: Page) {
  await formItem(page, '借款金额').waitFor({ timeout: 15_000 });
  await expect.poll(() => isChosen(page, '借款金额', '1-5万'), { timeout: 10_000 }).toBe(true);
  expect(await isChosen(page, '职业身份', '上班族')).toBe(true);
  expect(await isChosen(page, '芝麻分', '700分以上')).toBe(true);
  expect(await formItem(page, '工作城市').locator('button').innerText()).toContain('广州市');
  expect(await input(page, '真实姓名').inputValue()).toBe(NAME);
  expect(await input(page, '身份证号').inputValue()).toBe(ID);
}

/** The server's draft holds the answers (name and ID number masked in the answer). */
async function expectServerDraft(person: Person) {
  await expect
    .poll(async () => {
      const d = await serverDraft(person);
      return [d.applyLimit, d.job, d.sesameCredit, d.workCity, Boolean(d.realName), Boolean(d.identity)];
    })
    .toEqual([2, 1, 4, '广州市', true, true]);
}

describe('drafts of the application form (issue 16.3)', () => {
  for (const [code, path] of [
    ['demo', '/fill-information'],
    ['demo-fenqile', '/new-fill-information'],
    ['demo-formprocess4', '/fill-information-four'],
    ['demo-haier', '/fill-information'],
  ] as const) {
    it(`${code} ${path}: autosaved as typed, everything back after a reload and after back-and-forward`, async () => {
      const { person, page, errors, saves } = await openForm(code, path);
      await typeAnswers(page);
      await expectServerDraft(person);
      expect(saves.codes.length).toBeGreaterThan(0);
      expect(saves.codes.every((c) => c === 200)).toBe(true);
      // Autosaves carry the channel; never a half-typed ID number.
      expect(saves.bodies.every((b) => b.adChannelCode === code)).toBe(true);
      expect(saves.bodies.every((b) => b.identity === undefined || b.identity === ID)).toBe(true);

      await page.reload();
      await expectAnswersBack(page);
      await shot(page, `draft-${code}-after-reload`);

      await page.goto(`${e2e.server.url}/my?adChannelCode=${code}`);
      await page.waitForLoadState('networkidle');
      await page.goBack();
      await expectAnswersBack(page);
      expect(unexpectedErrors(errors)).toEqual([]);
      await page.context().close();
    });
  }

  it('offline: what is typed is kept on the device; online again the reload shows it and the server gets it', async () => {
    const { person, page, context } = await openForm('demo', '/fill-information');
    await choose(page, '借款金额', '1-5万');
    await chooseCity(page, '广东省', '广州市');
    await expect.poll(async () => (await serverDraft(person)).workCity).toBe('广州市');

    await context.setOffline(true);
    await choose(page, '职业身份', '上班族');
    await choose(page, '芝麻分', '700分以上');
    await input(page, '真实姓名').fill(NAME);
    await input(page, '身份证号').fill(ID);
    await page.waitForTimeout(1_000);
    // Nothing reached the server while offline.
    expect((await serverDraft(person)).job).toBeUndefined();
    await shot(page, 'draft-offline-typed');

    await context.setOffline(false);
    await page.reload();
    await expectAnswersBack(page);
    await expectServerDraft(person);
    await context.close();
  });

  it('a crash of the tab (closed without unloading): a new tab of the person finds the answers', async () => {
    const { person, page, context } = await openForm('demo', '/fill-information');
    // The autosave fails (server unreachable for this call): only the device's copy has the answers.
    await page.route('**/api/user/info/tempSave', (route) => route.abort('connectionfailed'));
    await typeAnswers(page);
    await page.waitForTimeout(1_000);
    expect((await serverDraft(person)).job).toBeUndefined();
    await page.close({ runBeforeUnload: false });

    const again = await context.newPage();
    await again.goto(`${e2e.server.url}/fill-information?adChannelCode=demo`);
    // A new tab: the answers come back from localStorage; the name and ID number are this tab's only.
    await expect.poll(() => isChosen(again, '借款金额', '1-5万'), { timeout: 15_000 }).toBe(true);
    expect(await isChosen(again, '芝麻分', '700分以上')).toBe(true);
    expect(await formItem(again, '工作城市').locator('button').innerText()).toContain('广州市');
    // …and the server gets them now.
    await expect.poll(async () => (await serverDraft(person)).job).toBe(1);
    await context.close();
  });

  it("another device's draft (on the server only) opens with the form", async () => {
    const person = await loginPerson(e2e.server.url);
    await apiCall(e2e.server.url, '/api/user/info/tempSave', {
      token: person.token,
      body: { applyLimit: 2, job: 1, sesameCredit: 4, workCity: '广州市', workCityCode: '440100' },
    });
    const { page, context } = await phonePage(e2e.browser);
    await seedSession(context, person, 'demo');
    await page.goto(`${e2e.server.url}/fill-information?adChannelCode=demo`);
    await formItem(page, '借款金额').waitFor({ timeout: 15_000 });
    expect(await isChosen(page, '借款金额', '1-5万')).toBe(true);
    expect(await isChosen(page, '职业身份', '上班族')).toBe(true);
    expect(await isChosen(page, '芝麻分', '700分以上')).toBe(true);
    expect(await formItem(page, '工作城市').locator('button').innerText()).toContain('广州市');
    // The name and ID number come back masked from the server: never pre-filled.
    expect(await input(page, '真实姓名').inputValue()).toBe('');
    await context.close();
  });

  it('formprocess3 step by step: a reload resumes at the step the answers imply, with the answers', async () => {
    const { person, page, context, saves } = await openForm('demo-formprocess3', '/fill-information-three');
    await choose(page, '借款金额', '1-5万');
    await chooseCity(page, '广东省', '广州市');
    await choose(page, '职业身份', '上班族');
    await choose(page, '工资发放形式', '银行代发');
    await choose(page, '社保', '缴纳6个月以上');
    await choose(page, '公积金', '缴纳6个月以上');
    await page.getByRole('button', { name: '下一步' }).click();
    await choose(page, '房产', '无房产');
    await expect.poll(async () => (await serverDraft(person)).workCity).toBe('广州市');
    expect(saves.codes.every((c) => c === 200)).toBe(true);

    await page.reload();
    // Step 2 (资产信用) again, its answer kept; step 1's answers there behind 上一步.
    await formItem(page, '房产').waitFor({ timeout: 15_000 });
    expect(await isChosen(page, '房产', '无房产')).toBe(true);
    expect(await formItem(page, '借款金额').count()).toBe(0);
    await shot(page, 'draft-formprocess3-resumed');
    await page.getByRole('button', { name: '上一步' }).click();
    expect(await isChosen(page, '借款金额', '1-5万')).toBe(true);
    expect(await isChosen(page, '公积金', '缴纳6个月以上')).toBe(true);
    await context.close();
  });

  it('a submitted form leaves no draft on the device', async () => {
    const { page, context } = await openForm('demo', '/fill-information');
    await typeAnswers(page);
    for (const [label, text] of [
      ['工资发放形式', '银行代发'],
      ['社保', '缴纳6个月以上'],
      ['公积金', '缴纳6个月以上'],
      ['商业保险', '缴纳1年以上'],
      ['房产', '无房产'],
      ['车产', '无车产'],
      ['信用记录', '信用良好，无逾期'],
    ] as const)
      await choose(page, label, text);
    await page.locator('.adm-form-footer').getByText('我已阅读并同意').click();
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/user/info/save'));
    await page.locator('button[type=submit]').click();
    expect(((await (await saved).json()) as { code: number }).code).toBe(200);
    await page.waitForURL((u) => u.pathname !== '/fill-information', { timeout: 15_000 });
    const kept = await page.evaluate(() =>
      [...Object.keys(localStorage), ...Object.keys(sessionStorage)].filter((k) =>
        k.startsWith('FORM_DRAFT:'),
      ),
    );
    expect(kept).toEqual([]);
    await context.close();
  });
});
