/**
 * Issue 16.2: visual regression of the pages people log in on — the landing `/` and the re-login
 * pages /login, /getQuota, /h5 — for representative skins and one channel per flow, compared with the
 * baselines committed in e2e/baselines (e2e/visual.ts). A style that stops loading (here: the
 * stylesheet with antd-mobile's variables taken out of the page, what broke /login before) fails.
 * `UPDATE_BASELINES=1 npx vitest run --config vitest.e2e.config.ts e2e/visual.e2e.test.ts` rewrites them.
 */
import { createCanvas } from '@napi-rs/canvas';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useServerAndBrowser } from './harness.ts';
import {
  CHANNEL_TOLERANCE,
  comparePngs,
  compareWithBaseline,
  expectMatchesBaseline,
  freeze,
  screenshot,
} from './visual.ts';

const e2e = useServerAndBrowser();

/** Skins with their own landing layouts and colours (8: amount dial, purple; 10: halo; 17: default). */
const SKIN_CHANNELS = ['demo-skin8', 'demo-skin10', 'demo-skin17'];
/** One channel per flow and link type. */
const FLOW_CHANNELS = [
  'demo',
  'demo-fenqile',
  'demo-formprocess3',
  'demo-formprocess4',
  'demo-haier',
  'demo-crm',
  'demo-link1',
];
const ALL = [...SKIN_CHANNELS, ...FLOW_CHANNELS];

const SHOTS: { route: string; name: string; channels: string[] }[] = [
  { route: '/', name: 'landing', channels: ALL },
  { route: '/login', name: 'login', channels: ALL },
  // The same page as /login (the document title differs): the skins suffice.
  { route: '/getQuota', name: 'getQuota', channels: SKIN_CHANNELS },
  { route: '/h5', name: 'h5', channels: SKIN_CHANNELS },
];

async function newPhone(browser: Browser) {
  // Device scale 1: the baselines stay small (375×812).
  const context = await browser.newContext({
    viewport: { width: 375, height: 812 },
    deviceScaleFactor: 1,
    isMobile: true,
    hasTouch: true,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
  });
  return { context, page: await context.newPage() };
}

/** Opens the page and waits until the app (not the pre-rendered copy) shows the login form. */
async function open(page: Page, path: string) {
  await page.goto(`${e2e.server.url}${path}`);
  await page.waitForFunction(
    () =>
      !document.documentElement.dataset.shell &&
      !document.querySelector('[aria-busy="true"]') &&
      document.querySelector('form button[type="submit"]') !== null,
    undefined,
    { timeout: 15_000 },
  );
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
  await freeze(page);
}

describe('visual regression of the landing and re-login pages', () => {
  for (const { route, name, channels } of SHOTS) {
    for (const channel of channels) {
      it(`${route}?adChannelCode=${channel} matches e2e/baselines/${name}-${channel}.png`, async () => {
        const { context, page } = await newPhone(e2e.browser);
        try {
          await open(page, `${route}?adChannelCode=${channel}`);
          await expectMatchesBaseline(page, `${name}-${channel}`);
        } finally {
          await context.close();
        }
      });
    }
  }

  // These compare only (never write a baseline, also with UPDATE_BASELINES=1: the ones above are
  // fresh then). The page's stylesheets are inline (scripts/prerender.mjs): the route edits the HTML.
  const broken = [
    {
      what: 'the stylesheet of antd-mobile’s components',
      edit: (html: string) =>
        html.replace(/<style>([\s\S]*?)<\/style>/g, (all, css: string) =>
          css.includes('.adm-checkbox-icon{') ? '' : all,
        ),
    },
    {
      // What /login lacked in issue 16.2: the components' rules were there, their variables not.
      what: 'antd-mobile’s CSS variables',
      edit: (html: string) => html.replace(/:root\{--adm-radius-s:[^}]*\}/g, ''),
    },
  ];
  for (const { what, edit } of broken) {
    it(`fails when a style stops loading: /login without ${what}`, async () => {
      const { context, page } = await newPhone(e2e.browser);
      try {
        let changed = false;
        await page.route(
          (url) => url.pathname === '/login',
          async (route) => {
            const response = await route.fetch();
            const html = await response.text();
            const edited = edit(html);
            changed = edited !== html;
            await route.fulfill({ response, body: edited });
          },
        );
        await open(page, '/login?adChannelCode=demo-skin8');
        expect(changed).toBe(true);
        const failure = await compareWithBaseline(await screenshot(page), 'login-demo-skin8').then(
          () => null,
          (error: Error) => error.message,
        );
        expect(failure).toMatch(
          /^login-demo-skin8: [\d.]+ % of the pixels \(\d+\) differ from e2e\/baselines\/login-demo-skin8\.png/,
        );
      } finally {
        await context.close();
      }
    });
  }
});

describe('comparePngs', () => {
  /** A 100×50 grey PNG; `paint` may change it. */
  const png = (paint?: (ctx: ReturnType<ReturnType<typeof createCanvas>['getContext']>) => void) => {
    const canvas = createCanvas(100, 50);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = 'rgb(128, 128, 128)';
    ctx.fillRect(0, 0, 100, 50);
    paint?.(ctx);
    return canvas.toBuffer('image/png');
  };

  it('counts the pixels off by more than the tolerance, not those within it', async () => {
    expect((await comparePngs(png(), png())).differing).toBe(0);
    const slightly = png((ctx) => {
      ctx.fillStyle = `rgb(${128 + CHANNEL_TOLERANCE}, 128, 128)`;
      ctx.fillRect(0, 0, 100, 50);
    });
    expect((await comparePngs(slightly, png())).differing).toBe(0);
    const block = png((ctx) => {
      ctx.fillStyle = 'rgb(255, 255, 255)';
      ctx.fillRect(10, 10, 10, 5);
    });
    const result = await comparePngs(block, png());
    expect(result.differing).toBe(50);
    expect(result.ratio).toBe(50 / 5000);
  });

  it('refuses screenshots of another size', async () => {
    const other = createCanvas(100, 60).toBuffer('image/png');
    await expect(comparePngs(other, png())).rejects.toThrow(/size 100×60 differs from the baseline's 100×50/);
  });
});
