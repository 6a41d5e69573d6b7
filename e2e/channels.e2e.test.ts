import { AGREEMENT_PAGES, THEMES, type ThemeName } from '@lm/shared/channel';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { phonePage, shot, unexpectedErrors } from './browser.ts';
import { useServerAndBrowser } from './harness.ts';

const e2e = useServerAndBrowser();

let phoneSeq = Number(String(Date.now()).slice(-7));
const newPhone = () => `15${String(++phoneSeq).padStart(9, '0')}`;

async function outboxCode(phone: string): Promise<string> {
  const res = await fetch(`${e2e.server.url}/api/dev/sms-outbox?phone=${phone}`);
  const body = (await res.json()) as { data: { code: string }[] };
  return body.data[0]!.code;
}

function hexToRgb(hex: string): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
}

/** The channel colour as the page paints it (antd-mobile's primary colour variable). */
async function primaryColour(page: Page): Promise<string> {
  return page.evaluate(() => {
    const probe = document.createElement('div');
    probe.style.color = 'var(--adm-color-primary)';
    document.body.appendChild(probe);
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return colour;
  });
}

/** Logs in on /login with the code from the dev outbox; the channel is already stored. */
async function login(page: Page, phone = newPhone()) {
  await page.goto(`${e2e.server.url}/login`);
  await page.getByPlaceholder('请输入手机号').fill(phone);
  await page.getByText('获取验证码').click();
  await expect.poll(() => page.getByText('验证码已发送').count(), { timeout: 10_000 }).toBeGreaterThan(0);
  await page.getByPlaceholder('请输入验证码').fill(await outboxCode(phone));
  await page.getByText('我已阅读并同意').click();
  await page.getByRole('button', { name: '登录' }).click();
  return phone;
}

const journeys: { code: string; theme: ThemeName; lands: RegExp; title: string }[] = [
  { code: 'demo', theme: 'red', lands: /\/fill-information(\?|$)/, title: 'default flow → the form' },
  {
    code: 'demo-fenqile',
    theme: 'red',
    lands: /\/new-fill-information/,
    title: 'fenqile → /new-fill-information',
  },
  {
    code: 'demo-formprocess3',
    theme: 'red',
    lands: /\/fill-information-three\/loading/,
    title: 'formprocess3 → its loading form',
  },
  {
    code: 'demo-formprocess4',
    theme: 'red',
    lands: /\/fill-information-four/,
    title: 'formprocess4 → /fill-information-four',
  },
  {
    code: 'demo-haier',
    theme: 'red',
    lands: /\/fill-information\/waiting-result/,
    title: 'Haier → the automatic form',
  },
  {
    code: 'demo-link1',
    theme: 'red',
    lands: /\/fill-information\/success.*isSpecialListCity/,
    title: 'link type 1 → registerLink',
  },
];

describe('channels in Chromium', () => {
  for (const j of journeys) {
    it(`${j.code}: ${j.title}`, async () => {
      const { page, errors } = await phonePage(e2e.browser);
      const config = (await (
        await fetch(`${e2e.server.url}/api/adChannel/h5Config?adChannelCode=${j.code}`)
      ).json()) as {
        data: { theme: ThemeName; themeColor: string };
      };
      await page.goto(`${e2e.server.url}/?adChannelCode=${j.code}`);
      await page.waitForLoadState('networkidle');
      // The page paints the accessible shade of the channel colour (issue 17), the theme's `ink`.
      expect(config.data.themeColor).toBe(THEMES[config.data.theme].primary);
      expect(await primaryColour(page)).toBe(hexToRgb(THEMES[config.data.theme].ink));
      await shot(page, `landing-${j.code}`);
      await login(page);
      await page.waitForURL(j.lands, { timeout: 15_000 });
      await shot(page, `after-login-${j.code}`);
      expect(unexpectedErrors(errors)).toEqual([]);
    });
  }

  it('each skin channel paints its own colour', async () => {
    for (const n of [8, 12, 16, 20, 23]) {
      const code = `demo-skin${n}`;
      const res = await fetch(`${e2e.server.url}/api/adChannel/h5Config?adChannelCode=${code}`);
      const { data } = (await res.json()) as { data: { theme: ThemeName; skin: number } };
      expect(data.skin).toBe(n);
      const { page } = await phonePage(e2e.browser);
      await page.goto(`${e2e.server.url}/?adChannelCode=${code}`);
      await page.waitForLoadState('networkidle');
      // Its colour's accessible shade (issue 17).
      expect(await primaryColour(page)).toBe(hexToRgb(THEMES[data.theme].ink));
      await shot(page, `landing-${code}`);
      await page.context().close();
    }
  });

  it('demo-location: an excluded city with link type 2 reports the device and goes to registration success', async () => {
    const { page, context } = await phonePage(e2e.browser);
    await context.grantPermissions(['geolocation'], { origin: e2e.server.url });
    await context.setGeolocation({ latitude: 39.9042, longitude: 116.4074 }); // Beijing, excluded by the channel
    await page.goto(`${e2e.server.url}/?adChannelCode=demo-location`);
    await login(page);
    await page.waitForURL(/\/register\/success/, { timeout: 20_000 });
    await shot(page, 'after-login-demo-location');
  });

  it('exchanges a route code once a day and caches it in ROUTE_CODE_MAP', async () => {
    const { page } = await phonePage(e2e.browser);
    let exchanges = 0;
    page.on('request', (r) => {
      if (r.url().includes('/api/adChannel/exchange/adChannelCode')) exchanges++;
    });
    const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    const routeMap = async () =>
      JSON.parse((await page.evaluate(() => localStorage.getItem('ROUTE_CODE_MAP'))) ?? '{}');
    // The landing of a route code link comes from the server with its exchange (ADR 022): no call.
    await page.goto(`${e2e.server.url}/?adRouteCode=r-fenqile`);
    await expect
      .poll(() => page.evaluate(() => localStorage.getItem('ad_channel_code')))
      .toBe('demo-fenqile');
    await page.waitForLoadState('networkidle');
    expect((await routeMap())['r-fenqile']).toMatchObject({ channelCode: 'demo-fenqile', expire: today });
    expect(exchanges).toBe(0);
    // A page the server does not render exchanges the code itself, once a day.
    await page.evaluate(() => localStorage.removeItem('ROUTE_CODE_MAP'));
    await page.goto(`${e2e.server.url}/borrow-money?adRouteCode=r-fenqile`);
    await page.waitForLoadState('networkidle');
    await expect.poll(() => exchanges).toBe(1);
    expect((await routeMap())['r-fenqile']).toMatchObject({ channelCode: 'demo-fenqile', expire: today });
    await page.goto(`${e2e.server.url}/borrow-money?adRouteCode=r-fenqile`);
    await page.waitForLoadState('networkidle');
    expect(exchanges).toBe(1);
    // An entry of an earlier day is exchanged again.
    await page.evaluate(() => {
      const m = JSON.parse(localStorage.getItem('ROUTE_CODE_MAP') ?? '{}');
      m['r-fenqile'].expire = '2000-01-01';
      localStorage.setItem('ROUTE_CODE_MAP', JSON.stringify(m));
    });
    await page.goto(`${e2e.server.url}/borrow-money?adRouteCode=r-fenqile`);
    await page.waitForLoadState('networkidle');
    await expect.poll(() => exchanges).toBe(2);
  });

  it('follows a route code plan target URL', async () => {
    const { page } = await phonePage(e2e.browser);
    await page.goto(`${e2e.server.url}/?adRouteCode=r-plan`);
    await page.waitForURL(/from=plan/, { timeout: 10_000 });
  });

  it('opens every route of spec §2 and every agreement page without a console error', async () => {
    const routes = [
      '/',
      '/download',
      '/login',
      '/loan-application',
      '/inline-page?url=https%3A%2F%2Fevil.example.com',
      '/getQuota',
      '/h5',
      '/failure',
      '/crm-login',
      '/protocol-fill-information',
      '/new-fill-information',
      '/advertising',
      '/borrow-money',
      '/apply_home',
      '/apply_limit',
      '/apply_auth_form',
      '/apply_auth_photo',
      '/apply_result',
      '/apply_my',
      '/you-xin-detail',
      '/seconed-match-authorize',
      '/my',
      '/my/personal-data',
      '/my/application-record',
      '/my/safe-center',
      '/my/cancel-account',
      '/audit-new',
      '/register',
      '/register/success',
      '/fill-information',
      '/fill-information/waiting',
      '/fill-information/success',
      '/fill-information/common-authorize',
      '/fill-information/waiting-result',
      '/fill-information/joint-auth-login',
      '/fill-information/rematch-waiting',
      '/fill-information/success-transfer',
      '/fill-information-three',
      '/fill-information-three/loading',
      '/fill-information-three/authorize-page-three',
      '/fill-information-three/retain-page',
      '/fill-information-three/success-page',
      '/fill-information-four',
      '/credit-process/identity-verification',
      '/credit-process/face-verification-loading',
      '/credit-process/credit-personal-infomation',
      '/credit-process/credit-personal-loading',
      '/credit-process/credit-application-form?coverStatus=1',
      ...AGREEMENT_PAGES.map((a) => `/${a.key}`),
    ];
    const { page, errors } = await phonePage(e2e.browser);
    const failures: string[] = [];
    for (const route of routes) {
      errors.length = 0;
      await page.goto(`${e2e.server.url}${route}`);
      await page.waitForLoadState('networkidle');
      const text = await page.evaluate(() => document.body.innerText);
      if (text.includes('页面不存在')) failures.push(`${route}: not found page`);
      if (/即将上线|敬请期待|coming soon/i.test(text)) failures.push(`${route}: coming-soon text`);
      // 401s of logged-out API calls are expected; nothing else may fail.
      const real = errors.filter((e) => !/status of 401/.test(e));
      if (real.length) failures.push(`${route}: ${real.join(' | ')}`);
      await shot(page, `route${route.split('?')[0]!.replaceAll('/', '_') || '_home'}`);
    }
    expect(failures).toEqual([]);
  });
});
