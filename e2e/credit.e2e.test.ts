import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawnSelfie, idCardFront, landscape } from '../apps/server/test/specimens.ts';
import { launch, phonePage, shot, unexpectedErrors } from './browser.ts';
import { exact, formItem, GOOD_ANSWERS } from './form.ts';
import { DEMO_FORM } from './person.ts';
import { newDataDir, type RunningServer, runCli, startServer } from './server.ts';
import { expectWaitWithinDelay, stepTimer } from './step-timer.ts';

/**
 * The credit process of a linkType 3 channel (issue 5) in Chromium with a fake front camera:
 * demo-crm → login → identity (name + ID number) → selfie from the camera → face check →
 * credit-information wizard (INFORMATION → CONTACT → BASE → DONE) → application form → matched
 * lenders. The camera plays a Y4M file written here from a drawn portrait (apps/server/test/specimens.ts,
 * the picture the server's face tests pass) or from a landscape without a face (the failure path).
 * Screenshots at 375 px go to SHOTS_DIR (default /tmp/shots) as credit-e2e-*.png.
 *
 * Issue 16.1: once the face check passed, the identity it was made with is the application's: the
 * application form shows it read-only, another person's is refused, and the console's person (the
 * lead) carries it. An operator (created before the server starts) looks at the person by the API.
 */

const SHOTS_DIR = process.env.SHOTS_DIR ?? '/tmp/shots';
const REAL_NAME = '张三';
/** Valid by packages/shared/src/validators/id-card.ts; born 1990. */
const IDENTITY = '110101199003074514';
const ZHANG = { realName: REAL_NAME, identity: IDENTITY, masked: ['张*', '110***********4514'] as const };
/** Issue 16.1's card: the number ends in X. */
const WANG = {
  realName: '王小明',
  identity: '11010519491231002X',
  masked: ['王**', '110***********002X'] as const,
};
type Who = typeof ZHANG | typeof WANG;
const STAFF_PHONE = '13500000016';
const STAFF_PASSWORD = 'verified identity 16';

let server: RunningServer;
let withFace: Browser;
let withoutFace: Browser;
let workDir: string;

/** RGBA → I420 (BT.601, limited range, what Chromium's Y4M reader expects), chroma averaged 2 × 2. */
function rgbaToI420(rgba: Uint8ClampedArray, width: number, height: number): Buffer {
  const cw = width / 2;
  const ch = height / 2;
  const out = Buffer.alloc(width * height + 2 * cw * ch);
  const clamp = (v: number) => Math.max(0, Math.min(255, Math.round(v)));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const r = rgba[i]!;
      const g = rgba[i + 1]!;
      const b = rgba[i + 2]!;
      out[y * width + x] = clamp(16 + (65.738 * r + 129.057 * g + 25.064 * b) / 256);
    }
  }
  const uBase = width * height;
  const vBase = uBase + cw * ch;
  for (let y = 0; y < ch; y++) {
    for (let x = 0; x < cw; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (const [dx, dy] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ] as const) {
        const i = ((2 * y + dy) * width + 2 * x + dx) * 4;
        r += rgba[i]!;
        g += rgba[i + 1]!;
        b += rgba[i + 2]!;
      }
      r /= 4;
      g /= 4;
      b /= 4;
      out[uBase + y * cw + x] = clamp(128 + (-37.945 * r - 74.494 * g + 112.439 * b) / 256);
      out[vBase + y * cw + x] = clamp(128 + (112.439 * r - 94.154 * g - 18.285 * b) / 256);
    }
  }
  return out;
}

/** A picture as a short Y4M clip (Chromium loops it) for --use-file-for-fake-video-capture. */
async function y4mOf(picture: Buffer, frames = 3): Promise<Buffer> {
  const img = await loadImage(picture);
  const width = img.width & ~1;
  const height = img.height & ~1;
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  g.drawImage(img, 0, 0, width, height);
  const frame = rgbaToI420(g.getImageData(0, 0, width, height).data, width, height);
  const parts: Buffer[] = [Buffer.from(`YUV4MPEG2 W${width} H${height} F30:1 Ip A1:1 C420jpeg\n`, 'ascii')];
  for (let i = 0; i < frames; i++) parts.push(Buffer.from('FRAME\n', 'ascii'), frame);
  return Buffer.concat(parts);
}

const fakeCamera = (file: string) => [
  '--use-fake-ui-for-media-stream',
  '--use-fake-device-for-media-stream',
  `--use-file-for-fake-video-capture=${file}`,
];

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'lm-credit-e2e-'));
  const faceClip = join(workDir, 'face.y4m');
  const noFaceClip = join(workDir, 'no-face.y4m');
  writeFileSync(faceClip, await y4mOf(await drawnSelfie({ width: 480, height: 640 })));
  writeFileSync(noFaceClip, await y4mOf(landscape(480, 640)));
  // The embedded database belongs to one process: the operator is created before the server starts.
  const dataDir = newDataDir();
  await runCli(
    [
      'apps/server/src/cli/admin-create.ts',
      '--phone',
      STAFF_PHONE,
      '--name',
      '运营小周',
      '--role',
      'operator',
      '--password',
      STAFF_PASSWORD,
    ],
    { DATA_DIR: dataDir },
  );
  [server, withFace, withoutFace] = await Promise.all([
    startServer({}, dataDir),
    launch(fakeCamera(faceClip)),
    launch(fakeCamera(noFaceClip)),
  ]);
});
afterAll(async () => {
  await withFace?.close();
  await withoutFace?.close();
  await server?.stop();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

async function snap(page: Page, name: string, viewport = false) {
  mkdirSync(SHOTS_DIR, { recursive: true });
  if (viewport) await page.waitForTimeout(400);
  await page.screenshot({ path: join(SHOTS_DIR, `credit-e2e-${name}.png`), fullPage: !viewport });
}

let phoneSeq = Number(String(Date.now()).slice(-7));
const newPhone = () => `17${String(++phoneSeq).padStart(9, '0')}`;

async function outboxCode(phone: string): Promise<string> {
  const res = await fetch(`${server.url}/api/dev/sms-outbox?phone=${phone}`);
  const body = (await res.json()) as { data: { code: string }[] };
  return body.data[0]!.code;
}

/** demo-crm landing, login with the code from the dev outbox; the login decision sends the person on. */
async function landAndLogin(page: Page) {
  await page.goto(`${server.url}/?adChannelCode=demo-crm`);
  await page.waitForLoadState('networkidle');
  await page.goto(`${server.url}/login`);
  const phone = newPhone();
  await page.getByPlaceholder('请输入手机号').fill(phone);
  await page.getByText('获取验证码').click();
  await expect.poll(() => page.getByText('验证码已发送').count(), { timeout: 10_000 }).toBeGreaterThan(0);
  await page.getByPlaceholder('请输入验证码').fill(await outboxCode(phone));
  await page.getByText('我已阅读并同意').click();
  await page.getByRole('button', { name: '登录' }).click();
  return phone;
}

/**
 * Records every camera stream the page opens (window.__streams), so the test can see its tracks
 * stopped; with `deny`, getUserMedia refuses like a person tapping "block".
 */
async function watchCamera(page: Page, opts: { deny?: boolean } = {}) {
  await page.addInitScript((deny: boolean) => {
    const w = window as unknown as { __streams: MediaStream[] };
    w.__streams = [];
    const md = navigator.mediaDevices;
    if (!md) return;
    const original = md.getUserMedia.bind(md);
    md.getUserMedia = async (constraints) => {
      if (deny) throw new DOMException('Permission denied', 'NotAllowedError');
      const stream = await original(constraints);
      w.__streams.push(stream);
      return stream;
    };
  }, opts.deny ?? false);
}

const liveTracks = (page: Page) =>
  page.evaluate(
    () =>
      (window as unknown as { __streams: MediaStream[] }).__streams
        .flatMap((s) => s.getTracks())
        .filter((t) => t.readyState === 'live').length,
  );

/** A photo of the card's front (drawn with `who`'s name and number) taken and read: the fields pre-filled. */
async function readCard(page: Page, who: Who) {
  const read = page.waitForResponse((r) => r.url().endsWith('/api/app/userInfo/getOcrResultByIDCardPic'), {
    timeout: 30_000,
  });
  await page.locator('input[type=file][aria-label="身份证人像面照片"]').setInputFiles({
    name: '身份证 正面.png',
    mimeType: 'image/png',
    buffer: idCardFront({ name: who.realName, idNumber: who.identity }),
  });
  const res = await read;
  expect((res.request().postDataJSON() as { image: string }).image).toMatch(
    /\/api\/storage\/private\/idcard\//,
  );
  const body = (await res.json()) as { code: number; data: Record<string, unknown> };
  expect(body.code).toBe(200);
  expect(body.data).toMatchObject({ realName: who.realName, identity: who.identity, valid: true });
  await expect.poll(() => formItem(page, '姓名').locator('input').inputValue()).toBe(who.realName);
  expect(await formItem(page, '身份证号').locator('input').inputValue()).toBe(who.identity);
  await page.getByText(/已根据身份证照片填入姓名和身份证号。.*请逐字核对/).waitFor();
}

/**
 * Step 1 of identity verification: name + ID number → identityNameVerify. With `ocr`, a photo of the
 * card front (drawn with the known name and number) is read first: the fields are only pre-filled,
 * nothing is sent until the person confirms.
 */
async function confirmIdentity(page: Page, opts: { ocr?: boolean; who?: Who } = {}) {
  const who = opts.who ?? ZHANG;
  await page.waitForURL(/\/credit-process\/identity-verification/, { timeout: 15_000 });
  if (opts.ocr) {
    const verifies: string[] = [];
    const onRequest = (r: { url(): string }) => {
      if (r.url().endsWith('/api/user/info/identityNameVerify')) verifies.push(r.url());
    };
    page.on('request', onRequest);
    await readCard(page, who);
    await page.waitForTimeout(500);
    await snap(page, `ocr-prefilled${who === ZHANG ? '' : '-wang'}`);
    // Pre-filled only: nothing was checked or sent in the person's name yet.
    expect(verifies).toEqual([]);
    page.off('request', onRequest);
  } else {
    await formItem(page, '姓名').locator('input').fill(who.realName);
    await formItem(page, '身份证号').locator('input').fill(who.identity);
  }
  const verified = page.waitForResponse((r) => r.url().endsWith('/api/user/info/identityNameVerify'));
  await page.getByRole('button', { name: '下一步' }).click();
  const body = (await (await verified).json()) as { code: number; data: Record<string, unknown> };
  expect(body.code).toBe(200);
  // The local provider checks the format only, and the page says so.
  expect(body.data).toMatchObject({ verified: null, method: 'format-only' });
  await page.getByText(/仅校验了身份证号的格式/).waitFor();
  // Shown back masked.
  await page.getByText(who.masked[0], { exact: true }).waitFor();
  await page.getByText(who.masked[1], { exact: true }).waitFor();
}

/** The live preview up, "拍照", then the photo; the camera is off afterwards. */
async function takeSelfie(page: Page, shotName: string) {
  const capture = page.getByRole('button', { name: '拍照', exact: true });
  await expect.poll(() => capture.isEnabled(), { timeout: 15_000 }).toBe(true);
  const size = await page
    .locator('video')
    .evaluate((v: HTMLVideoElement) => [v.videoWidth, v.videoHeight, v.readyState]);
  expect(size.slice(0, 2)).toEqual([480, 640]);
  expect(await liveTracks(page)).toBe(1);
  await page.waitForTimeout(300);
  await snap(page, `${shotName}-camera`);
  await capture.click();
  await page.getByAltText('已拍摄的人脸照片').waitFor();
  expect(await page.locator('video').count()).toBe(0);
  await expect.poll(() => liveTracks(page)).toBe(0);
  await snap(page, `${shotName}-selfie`);
}

/** "提交认证": the upload (private face folder), then the loading page's faceVerify. */
async function submitSelfie(page: Page, shotLoading?: string, who: Who = ZHANG) {
  const uploaded = page.waitForResponse(
    (r) => new URL(r.url()).pathname === '/api/storage' && r.request().method() === 'POST',
  );
  const checked = page.waitForResponse((r) => r.url().endsWith('/api/app/userInfo/faceVerify'), {
    timeout: 30_000,
  });
  await page.getByRole('button', { name: '提交认证' }).click();
  expect((await uploaded).status()).toBe(200);
  if (shotLoading) {
    // The first check starts the detector (1–2 s): the waiting page is on screen meanwhile.
    await page.getByText('人脸核验中').waitFor();
    await snap(page, shotLoading, true);
  }
  const res = await checked;
  const request = res.request().postDataJSON() as { image: string; realName?: string; identity?: string };
  expect(request.image).toMatch(/\/api\/storage\/private\/face\/\d{8}\/u\d+-[0-9a-f]{12}\/.+\.jpg$/);
  expect(request).toMatchObject({ realName: who.realName, identity: who.identity });
  return (await res.json()) as {
    code: number;
    data: { auditStatus: number; passed: boolean; reasons: string[]; identityVerified: unknown };
  };
}

/** An enumeration picker of the wizard (wheel): the option by a tap, then 确定. */
async function pickOption(page: Page, label: string, option: string, nth = 0) {
  const item = formItem(page, label).nth(nth);
  await item.click();
  const picker = page.locator('.adm-picker').filter({ visible: true });
  const choice = picker.locator('.adm-picker-view-column-item', { hasText: exact(option) }).first();
  await choice.waitFor();
  await choice.dispatchEvent('click');
  // The wheel scrolls to the tapped option: confirm only once it is the selected one (under load a
  // fixed wait confirmed the neighbour it was still passing, and a tap during the picker's opening was
  // lost: CI, 1 s without it becoming active), tapping it again while it is not.
  await expect
    .poll(
      async () => {
        const classes = (await choice.getAttribute('class')) ?? '';
        if (!classes.includes('column-item-active')) await choice.dispatchEvent('click');
        return classes;
      },
      { timeout: 10_000, interval: 500 },
    )
    .toContain('column-item-active');
  await page.waitForTimeout(300);
  await picker.locator('.adm-picker-header-button', { hasText: '确定' }).click();
  await picker.waitFor({ state: 'hidden' });
  await expect.poll(() => item.innerText()).toContain(option);
}

/** Province → city in a cascade picker opened from the form item `label`. */
async function chooseCity(page: Page, label: string, province: string, city: string) {
  await formItem(page, label).locator('button').click();
  const picker = page.locator('.adm-picker').filter({ visible: true });
  const columns = picker.locator('.adm-picker-view-column');
  const item = (col: number, text: string) =>
    columns.nth(col).locator('.adm-picker-view-column-item', { hasText: exact(text) });
  await expect.poll(() => item(0, province).count(), { timeout: 10_000 }).toBeGreaterThan(0);
  // A tap right after the table arrives can be lost while the wheel settles: tap until the cities follow.
  await expect
    .poll(
      async () => {
        await item(0, province).first().dispatchEvent('click');
        await page.waitForTimeout(300);
        return item(1, city).count();
      },
      { timeout: 10_000 },
    )
    .toBeGreaterThan(0);
  await item(1, city).first().dispatchEvent('click');
  await page.waitForTimeout(300);
  await picker.locator('.adm-picker-header-button', { hasText: '确定' }).click();
  await picker.waitFor({ state: 'hidden' });
  await expect.poll(() => formItem(page, label).locator('button').innerText()).toContain(city);
}

/** Saves a wizard step; answers the step the server computed after the save. */
async function saveStep(page: Page, button: string): Promise<string> {
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/app/userInfo/baseTempSave'));
  await page.getByRole('button', { name: button }).click();
  const body = (await (await saved).json()) as { code: number; data: { step: string } };
  expect(body.code).toBe(200);
  return body.data.step;
}

/** The wizard's first step, filled in (not saved). */
async function fillInformation(page: Page) {
  await page.waitForURL(/\/credit-process\/credit-personal-infomation/, { timeout: 20_000 });
  await formItem(page, '最高学历').waitFor({ timeout: 10_000 });
  await pickOption(page, '最高学历', '本科');
  await pickOption(page, '婚姻状况', '未婚');
  await pickOption(page, '年收入', '5-10万');
  await pickOption(page, '所属行业', '一般行业');
  await pickOption(page, '借款用途', '日常消费');
}

const CONTACTS = [
  { relationship: '父母', name: '李四', phone: '13912345678' },
  { relationship: '朋友', name: '王五', phone: '13712345678' },
] as const;

/** One contact of the CONTACT step, filled in (not saved). */
async function fillContact(page: Page, index: 0 | 1) {
  const c = CONTACTS[index];
  await formItem(page, '与本人关系').nth(index).waitFor();
  await pickOption(page, '与本人关系', c.relationship, index);
  await formItem(page, '姓名').nth(index).locator('input').fill(c.name);
  await formItem(page, '手机号').nth(index).locator('input').fill(c.phone);
}

/** The BASE step, filled in (not saved). */
async function fillBase(page: Page) {
  await formItem(page, '居住城市').waitFor();
  await chooseCity(page, '居住城市', '广东省', '广州市');
  await formItem(page, '详细地址').locator('textarea:not([readonly])').fill('天河区体育西路100号');
  await formItem(page, '单位名称').locator('input').fill('广州星河科技有限公司');
  await chooseCity(page, '单位城市', '广东省', '广州市');
  await formItem(page, '单位地址').locator('textarea:not([readonly])').fill('天河区珠江新城花城大道1号');
}

/** The credit-information wizard from INFORMATION to DONE; `beforeSubmit` runs just before 提交资料. */
async function fillWizard(page: Page, beforeSubmit?: () => void) {
  await fillInformation(page);
  await snap(page, 'wizard-information');
  expect(await saveStep(page, '保存并继续')).toBe('CONTACT');
  await fillContact(page, 0);
  await fillContact(page, 1);
  await snap(page, 'wizard-contact');
  expect(await saveStep(page, '保存并继续')).toBe('BASE');
  await fillBase(page);
  await snap(page, 'wizard-base');
  beforeSubmit?.();
  expect(await saveStep(page, '提交资料')).toBe('DONE');
}

/** The keys of this tab's drafts ending in `suffix`, in sessionStorage and in localStorage. */
const draftKeysEndingIn = (page: Page, suffix: string) =>
  page.evaluate((end) => {
    const keys = (store: Storage) => Object.keys(store).filter((k) => k.endsWith(end));
    return { session: keys(sessionStorage), local: keys(localStorage) };
  }, suffix);

/**
 * The application form after the credit information (Selector questions, city). The name and ID
 * number are those of the passed face check: shown read-only (ID masked), not typed, not sent.
 */
async function fillApplication(page: Page, who: Who = ZHANG, keepShot?: string) {
  await page.waitForURL(/\/credit-process\/credit-application-form/, { timeout: 20_000 });
  for (const [label, option] of GOOD_ANSWERS) {
    const item = formItem(page, label).locator('.adm-selector-item', { hasText: exact(option) });
    const cls = (await item.getAttribute('class')) ?? '';
    if (!cls.includes('adm-selector-item-active')) await item.click();
  }
  // Issue 44.18: the work city starts as the employer's city just entered in the wizard (广州).
  const workCity = formItem(page, '工作城市');
  await expect.poll(() => workCity.locator('button').innerText(), { timeout: 10_000 }).toContain('广州市');
  await workCity.getByText('已按您填写的单位所在城市预填', { exact: false }).waitFor();
  const name = formItem(page, '真实姓名').locator('input');
  const id = formItem(page, '身份证号').locator('input');
  await expect.poll(() => name.inputValue(), { timeout: 10_000 }).toBe(who.realName);
  expect(await id.inputValue()).toBe(who.masked[1]);
  expect(await name.isDisabled()).toBe(true);
  expect(await id.isDisabled()).toBe(true);
  await page.getByText('已实名认证，姓名和身份证号不可修改').waitFor();
  await page.locator('.adm-form-footer').getByText('我已阅读并同意').click();
  await snap(page, `application-form${who === ZHANG ? '' : '-wang'}`);
  if (keepShot) {
    // The identity section in view, kept in e2e/screenshots.
    await formItem(page, '真实姓名').scrollIntoViewIfNeeded();
    await shot(page, keepShot);
  }
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/user/info/save'));
  await page.locator('button[type=submit]').click();
  const res = await saved;
  // Not sent: the server uses the verified identity.
  const sent = res.request().postDataJSON() as Record<string, unknown>;
  expect(sent).not.toHaveProperty('realName');
  expect(sent).not.toHaveProperty('identity');
  expect(sent).toMatchObject({ workCity: '广州市', workCityCode: '440100' });
  const body = (await res.json()) as {
    code: number;
    data: {
      matchId: number;
      id: string | null;
      productName: string;
      mayAuthProductList: { id: string; productName: string }[];
    };
  };
  expect(body.code).toBe(200);
  return {
    names: [body.data.productName, ...body.data.mayAuthProductList.map((p) => p.productName)],
    matchId: body.data.matchId,
    productIds: [...(body.data.id ? [body.data.id] : []), ...body.data.mayAuthProductList.map((p) => p.id)],
  };
}

interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

async function apiAs<T>(path: string, token: string, init: { method?: string; body?: unknown } = {}) {
  const res = await fetch(`${server.url}${path}`, {
    method: init.method ?? (init.body ? 'POST' : 'GET'),
    headers: {
      ...(token ? { accessToken: token } : {}),
      ...(init.body ? { 'content-type': 'application/json' } : {}),
    },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  return { status: res.status, ...((await res.json()) as Envelope<T>) };
}

describe('credit process in Chromium with a fake front camera (demo-crm)', () => {
  it('identity → selfie → face passed → wizard to DONE → application form → matched lenders', async () => {
    const { page, errors } = await phonePage(withFace);
    await watchCamera(page);
    await landAndLogin(page);

    // The login decision (spec §4, linkType 3, credit open, face not passed): identity verification.
    await page.waitForURL(/\/credit-process\/identity-verification/, { timeout: 15_000 });
    await page.getByText('拍摄身份证人像面').waitFor();
    await snap(page, 'identity');
    await confirmIdentity(page);
    await takeSelfie(page, 'pass');

    // Issue 44.13: each step waits no longer than its work plus the navigation delay.
    const timer = stepTimer(page);
    const selfieSent = timer.mark();
    const face = await submitSelfie(page, 'face-loading');
    expect(face.code).toBe(200);
    expect(face.data).toMatchObject({ auditStatus: 2, passed: true, reasons: [], identityVerified: null });
    await page.getByText('认证通过').waitFor();
    await snap(page, 'face-passed');

    // decideCreditFlow: face passed, credit information incomplete → the wizard.
    expectWaitWithinDelay(
      'face submit → wizard',
      await timer.step(selfieSent, /\/credit-process\/credit-personal-infomation/),
    );
    let wizardSent = 0;
    await fillWizard(page, () => {
      wizardSent = timer.mark();
    });
    await page.waitForURL(/\/credit-process\/credit-personal-loading/, { timeout: 10_000 });
    await snap(page, 'credit-personal-loading', false);
    expectWaitWithinDelay(
      'wizard 提交资料 → form',
      await timer.step(wizardSent, /\/credit-process\/credit-application-form/),
    );
    const { names: offers } = await fillApplication(page);
    expect(offers.length).toBeGreaterThanOrEqual(1);

    // Matched lenders, each with its consent box.
    await page.waitForURL(/\/fill-information\/common-authorize/, { timeout: 20_000 });
    for (const name of offers) {
      await page
        .locator('li')
        .filter({ has: page.getByText(name, { exact: true }) })
        .first()
        .waitFor();
    }
    await snap(page, 'matched');

    // The stored face status and step as the server has them.
    const token = await page.evaluate(() => localStorage.getItem('TOKEN'));
    const detail = (await (
      await fetch(`${server.url}/api/app/userInfo/baseDetail`, { headers: { accessToken: token! } })
    ).json()) as { data: { auditStatus: number; step: string } };
    expect(detail.data).toMatchObject({ auditStatus: 2, step: 'DONE' });
    expect(unexpectedErrors(errors)).toEqual([]);
  });

  it('issue 16.1: OCR of 王小明 + face passed → the form carries 王小明 read-only, 张三 is refused, the lead is 王小明’s', async () => {
    const { page, errors } = await phonePage(withFace);
    await watchCamera(page);
    const phone = await landAndLogin(page);
    await confirmIdentity(page, { ocr: true, who: WANG });
    await takeSelfie(page, 'wang');
    const face = await submitSelfie(page, undefined, WANG);
    expect(face.data).toMatchObject({ auditStatus: 2, passed: true });
    await fillWizard(page);
    await page.waitForURL(/\/credit-process\/credit-personal-loading/, { timeout: 10_000 });
    const { names, matchId, productIds } = await fillApplication(page, WANG, 'credit-verified-identity-form');
    expect(names.length).toBeGreaterThanOrEqual(1);
    await page.waitForURL(/\/fill-information\/common-authorize/, { timeout: 20_000 });

    // Another person's name and number, by the API with this person's session: refused, nothing stored.
    const token = (await page.evaluate(() => localStorage.getItem('TOKEN')))!;
    const uid = Number(await page.evaluate(() => localStorage.getItem('user_uid')));
    const zhang = {
      ...DEMO_FORM,
      adChannelCode: 'demo-crm',
      realName: ZHANG.realName,
      identity: ZHANG.identity,
    };
    for (const [path, body] of [
      ['/api/user/info/save', zhang],
      ['/api/user/info/tempSave', { realName: ZHANG.realName, identity: ZHANG.identity }],
      ['/api/user/info/identityNameVerify', { realName: ZHANG.realName, identity: ZHANG.identity }],
    ] as const) {
      const refused = await apiAs(path, token, { body });
      expect({ path, status: refused.status, code: refused.code, msg: refused.msg }).toEqual({
        path,
        status: 400,
        code: 400,
        msg: '实名信息须与已认证的身份一致',
      });
    }
    const shown = await apiAs<Record<string, string>>('/api/user/info/form/show', token);
    expect(shown.data).toMatchObject({ realName: '王**', identity: '110***********002X' });

    // Consent to the lenders matched: the leads are written for 王小明.
    const auth = await apiAs('/api/user/info/auth', token, { method: 'PUT', body: { productIds, matchId } });
    expect(auth.code, auth.msg).toBe(200);

    // The console: the person's application is 王小明's (revealed with a reason), face passed, leads written.
    const staff = await apiAs<{ token: string }>('/api/crm/admin/login', '', {
      body: { phone: STAFF_PHONE, password: STAFF_PASSWORD },
    });
    expect(staff.code, staff.msg).toBe(200);
    const detail = await apiAs<{
      user: { phoneMasked: string };
      draft: { realNameMasked: string | null };
      credit: { auditStatus: number };
      leads: unknown[];
    }>(`/api/admin/users/${uid}`, staff.data.token);
    expect(detail.data.user.phoneMasked).toBe(`${phone.slice(0, 3)}****${phone.slice(7)}`);
    expect(detail.data.draft.realNameMasked).toBe('王**');
    expect(detail.data.credit.auditStatus).toBe(2);
    expect(detail.data.leads.length).toBe(productIds.length);
    for (const [field, value] of [
      ['realName', WANG.realName],
      ['identity', WANG.identity],
    ] as const) {
      const revealed = await apiAs<{ value: string }>(`/api/admin/users/${uid}/reveal`, staff.data.token, {
        body: { field, reason: '核对实名信息（问题 16.1 回归测试）' },
      });
      expect(revealed.data.value).toBe(value);
    }
    expect(unexpectedErrors(errors)).toEqual([]);
  });

  it('a reload keeps what was typed: the card read (Android reloads when the camera app returns), a wizard step not saved', async () => {
    const { page, errors } = await phonePage(withFace);
    await watchCamera(page);
    await landAndLogin(page);
    await page.waitForURL(/\/credit-process\/identity-verification/, { timeout: 15_000 });
    await readCard(page, ZHANG);
    await page.reload();
    await page.getByText(/已根据身份证照片填入姓名和身份证号。.*请逐字核对/).waitFor({ timeout: 15_000 });
    expect(await formItem(page, '姓名').locator('input').inputValue()).toBe(ZHANG.realName);
    expect(await formItem(page, '身份证号').locator('input').inputValue()).toBe(ZHANG.identity);
    await page.getByRole('button', { name: '信息无误，下一步' }).waitFor();
    // What the person corrects by hand is kept too.
    await formItem(page, '姓名').locator('input').fill('张三丰');
    await page.reload();
    await expect
      .poll(() => formItem(page, '姓名').locator('input').inputValue(), { timeout: 15_000 })
      .toBe('张三丰');
    await snap(page, 'identity-after-reload');
    // Kept in this tab's session storage only, never in localStorage.
    expect(await draftKeysEndingIn(page, ':#identity')).toMatchObject({
      session: [expect.any(String)],
      local: [],
    });

    await formItem(page, '姓名').locator('input').fill(ZHANG.realName);
    await confirmIdentity(page);
    await takeSelfie(page, 'after-reload');
    const face = await submitSelfie(page);
    expect(face.data).toMatchObject({ passed: true });
    await page.waitForURL((u) => !u.pathname.includes('face-verification-loading'), { timeout: 20_000 });
    expect(await draftKeysEndingIn(page, ':#identity')).toEqual({ session: [], local: [] });

    // The wizard: a step's edits are saved by its button only; a reload before it keeps them (this tab).
    await fillInformation(page);
    expect(await saveStep(page, '保存并继续')).toBe('CONTACT');
    await fillContact(page, 0);
    await page.reload();
    await expect
      .poll(() => formItem(page, '姓名').nth(0).locator('input').inputValue(), { timeout: 15_000 })
      .toBe('李四');
    expect(await formItem(page, '手机号').nth(0).locator('input').inputValue()).toBe('13912345678');
    expect(await formItem(page, '与本人关系').nth(0).innerText()).toContain('父母');
    await snap(page, 'wizard-contact-after-reload');
    expect(await draftKeysEndingIn(page, ':#credit-info')).toMatchObject({
      session: [expect.any(String)],
      local: [],
    });
    await fillContact(page, 1);
    expect(await saveStep(page, '保存并继续')).toBe('BASE');
    await fillBase(page);
    expect(await saveStep(page, '提交资料')).toBe('DONE');
    // A complete record leaves no draft behind.
    await page.waitForURL(/\/credit-process\/credit-personal-loading|credit-application-form/, {
      timeout: 20_000,
    });
    expect(await draftKeysEndingIn(page, ':#credit-info')).toEqual({ session: [], local: [] });
    expect(unexpectedErrors(errors)).toEqual([]);
  });

  it('no face in the picture: 认证失败 for 2 s, back to identity verification with the reasons', async () => {
    const { page, errors } = await phonePage(withoutFace);
    await watchCamera(page);
    await landAndLogin(page);
    await confirmIdentity(page, { ocr: true });
    await takeSelfie(page, 'fail');

    const face = await submitSelfie(page);
    expect(face.code).toBe(200);
    expect(face.data).toMatchObject({ auditStatus: 1, passed: false });
    expect(face.data.reasons).toContain('未检测到人脸，请正对镜头重新拍摄');

    const toast = page.locator('.adm-toast-main', { hasText: '认证失败' });
    await toast.waitFor();
    const shownAt = Date.now();
    await snap(page, 'face-failed', true);
    await page.waitForURL(/\/credit-process\/identity-verification/, { timeout: 10_000 });
    // Spec §8: the toast stays about 2 s (the navigation waits for it).
    expect(Date.now() - shownAt).toBeGreaterThan(1_200);

    // Back on the selfie step (the identity is already confirmed) with the reasons.
    const notice = page.getByRole('alert', { name: '上次认证未通过' });
    await notice.getByText('未检测到人脸，请正对镜头重新拍摄').waitFor();
    await page.getByRole('button', { name: '拍照', exact: true }).waitFor();
    await snap(page, 'fail-back');

    // Leaving the selfie step ("修改": back to the identity fields, kept) stops the camera.
    await expect.poll(() => page.getByRole('button', { name: '拍照', exact: true }).isEnabled()).toBe(true);
    expect(await liveTracks(page)).toBe(1);
    await page.getByRole('button', { name: '修改' }).click();
    await expect.poll(() => liveTracks(page)).toBe(0);
    expect(await formItem(page, '姓名').locator('input').inputValue()).toBe(REAL_NAME);
    expect(await formItem(page, '身份证号').locator('input').inputValue()).toBe(IDENTITY);
    expect(unexpectedErrors(errors)).toEqual([]);
  });

  it('camera refused: the file input takes over; a file over 10 MB is refused before any upload', async () => {
    const { page, errors } = await phonePage(withoutFace);
    await watchCamera(page, { deny: true });
    const storageCalls: string[] = [];
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith('/api/storage') || path === '/api/common/upload/policy') storageCalls.push(path);
    });
    await landAndLogin(page);
    await confirmIdentity(page);

    await page.getByText(/未获得摄像头权限/).waitFor();
    await page.getByRole('button', { name: '拍照上传' }).waitFor();
    await page.getByRole('button', { name: '重试开启摄像头' }).waitFor();
    await snap(page, 'camera-denied');

    const input = page.locator('input[type=file][capture=user]');
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 0);
    big.set([0xff, 0xd8, 0xff, 0xe0]);
    await input.setInputFiles({ name: 'big.jpg', mimeType: 'image/jpeg', buffer: big });
    await page.locator('.adm-toast-main', { hasText: '文件大小不能超过10MB' }).waitFor();
    await snap(page, 'too-large', true);
    await page.waitForTimeout(500);
    expect(storageCalls).toEqual([]);
    // Nothing was taken: still the file input as the main way.
    expect(await page.getByAltText('已拍摄的人脸照片').count()).toBe(0);

    // A photo through the file input (a PNG here): redrawn as JPEG in the browser, uploaded, checked.
    const portrait = await loadImage(await drawnSelfie({ width: 480, height: 640 }));
    const png = createCanvas(480, 640);
    png.getContext('2d').drawImage(portrait, 0, 0);
    await input.setInputFiles({
      name: 'IMG_0001.png',
      mimeType: 'image/png',
      buffer: png.toBuffer('image/png'),
    });
    await page.getByAltText('已拍摄的人脸照片').waitFor();
    await page.locator('.adm-toast-main').waitFor({ state: 'detached', timeout: 5_000 });
    await snap(page, 'file-picked');

    // The check cannot run (503: detector busy, nothing recorded): a retry message, then 重试 with the
    // same photo reaches the real check.
    let refused = 0;
    await page.route('**/api/app/userInfo/faceVerify', async (route) => {
      if (refused++ > 0) return route.fallback();
      await route.fulfill({
        status: 503,
        json: { code: 503, msg: '人脸核验繁忙，请稍后重试', data: null },
      });
    });
    const face = await submitSelfie(page);
    expect(face.code).toBe(503);
    await page.getByText('暂时无法完成核验').waitFor();
    await page.getByText('人脸核验繁忙，请稍后重试').waitFor();
    await snap(page, 'face-retry');
    const again = page.waitForResponse((r) => r.url().endsWith('/api/app/userInfo/faceVerify'), {
      timeout: 30_000,
    });
    await page.getByRole('button', { name: '重试' }).click();
    const retried = (await (await again).json()) as { code: number; data: { auditStatus: number } };
    expect(retried).toMatchObject({ code: 200, data: { auditStatus: 2 } });
    expect(refused).toBe(2);
    expect(storageCalls).toContain('/api/storage');
    await page.waitForURL(/\/credit-process\/credit-personal-infomation/, { timeout: 20_000 });
    // The browser logs the 503 answered above; nothing else.
    expect(unexpectedErrors(errors)).toEqual([
      'Failed to load resource: the server responded with a status of 503 (Service Unavailable)',
    ]);
  });
});
