import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { phonePage, shot, unexpectedErrors } from './browser.ts';
import { submitGoodForm } from './form.ts';
import { useServerAndBrowser } from './harness.ts';
import { logInWithCode, loginPerson } from './person.ts';
import {
  BASELINE_DIR,
  comparePngs,
  expectMatchesBaseline,
  freeze,
  MAX_DIFF_RATIO,
  screenshot,
} from './visual.ts';

/**
 * The support matrix's old engines (docs/h5.md, ADR 067, issue 46.3), simulated in Chromium:
 * - `between` — Chrome 64–104 / iOS 12–16.3: module scripts, but no `import.meta.resolve` (the build's
 *   module check, assets/module-check-*.js, answers as such an engine evaluates it: it throws), so the
 *   plugin's fallback loads the legacy build;
 * - `no-modules` — Chrome 49–60 / iOS 10: no module scripts at all: the pages' module scripts and
 *   modulepreload links are taken out and the legacy scripts lose `nomodule`, as such an engine reads them.
 * In both, the APIs newer than Chrome 64 that the app and its libraries call are deleted before any script
 * runs, so only the legacy build's polyfills can bring them back. Not AbortController (Chrome 66): this
 * Chromium's fetch refuses a polyfilled signal, where Chrome 64's ignored the `signal` member.
 */

const e2e = useServerAndBrowser();

function removeNewerApis() {
  const drop = (owner: object, name: string) => {
    Reflect.deleteProperty(owner, name);
  };
  drop(window, 'queueMicrotask');
  drop(window, 'structuredClone');
  drop(window, 'ResizeObserver');
  drop(window, 'IntersectionObserver');
  drop(Array.prototype, 'at');
  drop(Array.prototype, 'flat');
  drop(Array.prototype, 'flatMap');
  drop(Object, 'hasOwn');
  drop(Object, 'fromEntries');
  drop(String.prototype, 'replaceAll');
  drop(Promise, 'allSettled');
}

type Engine = 'between' | 'no-modules';

async function oldPhone(browser: Browser, engine: Engine, scale = 1) {
  // As the baselines were taken: Chromium's user agent, device scale 1.
  const { context, page, errors } = await phonePage(browser, {
    deviceScaleFactor: scale,
    timezoneId: 'Asia/Shanghai',
    userAgent: undefined,
  });
  await page.addInitScript(removeNewerApis);
  if (engine === 'between') {
    await page.route(/\/assets\/module-check-\w+\.js$/, (route) =>
      route.fulfill({
        contentType: 'text/javascript',
        body: 'throw Error("import.meta.resolve not supported")',
      }),
    );
  } else {
    await page.route(
      (url) =>
        url.origin === e2e.server.url && !url.pathname.startsWith('/api/') && !/\.\w+$/.test(url.pathname),
      async (route) => {
        const response = await route.fetch();
        const html = (await response.text())
          .replace(/<script type="module"[^>]*>[\s\S]*?<\/script>/g, '')
          .replace(/<link rel="modulepreload"[^>]*>/g, '')
          .replaceAll('<script nomodule', '<script');
        await route.fulfill({ response, body: html });
      },
    );
  }
  const legacyScripts: string[] = [];
  const modernEntries: string[] = [];
  page.on('request', (req) => {
    const path = new URL(req.url()).pathname;
    if (/-legacy-[\w-]+\.js$/.test(path)) legacyScripts.push(path);
    else if (/^\/assets\/index-[\w-]+\.js$/.test(path)) modernEntries.push(path);
  });
  /** The errors an old engine shows beyond the one its module check is made to throw. */
  const pageErrors = () =>
    unexpectedErrors(errors).filter((e) => !/import\.meta\.resolve not supported/.test(e));
  return { context, page, pageErrors, legacyScripts, modernEntries };
}

/** The application form's submit button (the login page's is in a form as well). */
const FORM_SUBMIT = '.adm-form-footer button[type="submit"]';

/** Waits until the app (not the server's first screen) shows the page, then freezes it for a screenshot. */
async function appShows(page: Page, selector: string) {
  await page.waitForFunction(
    (sel) =>
      !document.documentElement.dataset.shell &&
      !document.querySelector('[aria-busy="true"]') &&
      document.querySelector(sel) !== null,
    selector,
    { timeout: 30_000 },
  );
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
  await freeze(page);
}

/**
 * The page as an engine that ignores `gap` on flex containers (Chrome < 84, iOS < 14.5) draws it: every
 * flex container's gap dropped; `fallback` — html.lm-no-flex-gap, which boot.js sets on such an engine —
 * turns on the margins build/flex-gap-fallback.ts wrote.
 */
async function withoutFlexGap(page: Page, fallback: boolean) {
  await page.evaluate((on) => {
    document.documentElement.classList.toggle('lm-no-flex-gap', on);
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('*'))) {
      const { display } = getComputedStyle(el);
      if (display === 'flex' || display === 'inline-flex') {
        el.style.setProperty('row-gap', 'normal', 'important');
        el.style.setProperty('column-gap', 'normal', 'important');
      }
    }
  }, fallback);
}

/** The application form as a modern engine shows it (logged in through the API), for comparison. */
async function modernFormShot(token: { TOKEN: string; uid: string; phone: string }) {
  const { context, page } = await phonePage(e2e.browser, {
    deviceScaleFactor: 1,
    timezoneId: 'Asia/Shanghai',
    userAgent: undefined,
  });
  await context.addInitScript((t) => {
    localStorage.setItem('ad_channel_code', 'demo');
    localStorage.setItem('TOKEN', t.TOKEN);
    localStorage.setItem('user_uid', t.uid);
    localStorage.setItem('user_phone', t.phone);
  }, token);
  await page.goto(`${e2e.server.url}/fill-information?adChannelCode=demo`);
  await appShows(page, FORM_SUBMIT);
  const png = await screenshot(page);
  await context.close();
  return png;
}

describe('old engines run the legacy build (ES5, SystemJS, polyfills)', () => {
  it('Chrome 64–104 (no import.meta.resolve, no newer APIs): landing → code → login → form → consent', async () => {
    const { context, page, pageErrors, legacyScripts } = await oldPhone(e2e.browser, 'between');
    try {
      await page.goto(`${e2e.server.url}/?adChannelCode=demo`);
      await appShows(page, 'form button[type="submit"]');
      // The legacy build drew it, and it looks as the modern one does (the landing's baseline).
      expect(await page.evaluate(() => typeof (window as { System?: unknown }).System)).toBe('object');
      expect(legacyScripts.some((p) => /\/assets\/index-legacy-/.test(p))).toBe(true);
      expect(legacyScripts.some((p) => /\/assets\/polyfills-legacy-/.test(p))).toBe(true);
      // The polyfills the app calls are back (core-js by usage: structuredClone, Object.hasOwn and
      // replaceAll are called by none of its scripts and stay away; the DOM ones from legacy-polyfills.js).
      expect(
        await page.evaluate(() =>
          [
            typeof queueMicrotask,
            typeof ResizeObserver,
            typeof IntersectionObserver,
            typeof [].at,
            typeof [].flat,
            typeof Object.fromEntries,
            typeof Promise.allSettled,
          ].every((t) => t === 'function'),
        ),
      ).toBe(true);
      await expectMatchesBaseline(page, 'landing-demo');
      await shot(page, 'legacy-landing');

      // The login page (the landing's home dialog opens on a scroll: the journeys log in on /login).
      await page.goto(`${e2e.server.url}/login`);
      await appShows(page, 'form button[type="submit"]');
      await logInWithCode(page, e2e.server.url, `17${String(Date.now()).slice(-9)}`, '登录');
      await page.waitForURL(/\/fill-information(\?|$)/, { timeout: 20_000 });
      await appShows(page, FORM_SUBMIT);
      const legacyForm = await screenshot(page);
      await shot(page, 'legacy-form');
      // The same form as a modern engine draws it for the same person.
      const session = await page.evaluate(() => ({
        TOKEN: localStorage.getItem('TOKEN') ?? '',
        uid: localStorage.getItem('user_uid') ?? '',
        phone: localStorage.getItem('user_phone') ?? '',
      }));
      const same = await comparePngs(legacyForm, await modernFormShot(session));
      expect(same.ratio).toBeLessThanOrEqual(MAX_DIFF_RATIO);

      const saved = await submitGoodForm(page);
      expect(((await saved.json()) as { code: number }).code).toBe(200);

      await page.waitForURL(/\/fill-information\/common-authorize/, { timeout: 20_000 });
      const first = page.locator('li .adm-checkbox').first();
      await first.waitFor({ timeout: 20_000 });
      await first.click();
      const answered = page.waitForResponse((r) => r.url().endsWith('/api/user/info/auth'));
      await page.getByRole('button', { name: /同意授权并申请（1家）/ }).click();
      const auth = (await (await answered).json()) as { code: number; data: { consented: unknown[] } };
      expect(auth.code).toBe(200);
      expect(auth.data.consented).toHaveLength(1);
      await page.waitForURL(/\/fill-information\/success/, { timeout: 20_000 });
      await page.getByText('申请已提交').first().waitFor();
      await shot(page, 'legacy-result');
      expect(pageErrors()).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('Chrome 49–60 (no module scripts): the landing and the form from the nomodule scripts', async () => {
    const { context, page, pageErrors, legacyScripts, modernEntries } = await oldPhone(
      e2e.browser,
      'no-modules',
    );
    try {
      await page.goto(`${e2e.server.url}/?adChannelCode=demo`);
      await appShows(page, 'form button[type="submit"]');
      expect(modernEntries).toEqual([]);
      expect(legacyScripts.some((p) => /\/assets\/index-legacy-/.test(p))).toBe(true);
      await expectMatchesBaseline(page, 'landing-demo');
      await shot(page, 'nomodule-landing');
      // Without flex gap the items touch (the comparison fails) …
      const baseline = readFileSync(join(BASELINE_DIR, 'landing-demo.png'));
      await withoutFlexGap(page, false);
      expect((await comparePngs(await screenshot(page), baseline)).ratio).toBeGreaterThan(MAX_DIFF_RATIO);
      // … and the fallback margins space them as the gaps did.
      await withoutFlexGap(page, true);
      expect((await comparePngs(await screenshot(page), baseline)).ratio).toBeLessThanOrEqual(MAX_DIFF_RATIO);
      await shot(page, 'nomodule-landing-no-flex-gap');

      // The form of a person logged in (through the API), as the modern build draws it.
      const person = await loginPerson(e2e.server.url);
      const session = { TOKEN: person.token, uid: String(person.uid), phone: person.phone };
      await page.evaluate((t) => {
        localStorage.setItem('TOKEN', t.TOKEN);
        localStorage.setItem('user_uid', t.uid);
        localStorage.setItem('user_phone', t.phone);
      }, session);
      await page.goto(`${e2e.server.url}/fill-information?adChannelCode=demo`);
      await appShows(page, FORM_SUBMIT);
      const legacyForm = await screenshot(page);
      await shot(page, 'nomodule-form');
      const modernForm = await modernFormShot(session);
      const same = await comparePngs(legacyForm, modernForm);
      expect(same.ratio).toBeLessThanOrEqual(MAX_DIFF_RATIO);
      await withoutFlexGap(page, true);
      expect((await comparePngs(await screenshot(page), modernForm)).ratio).toBeLessThanOrEqual(
        MAX_DIFF_RATIO,
      );
      expect(modernEntries).toEqual([]);
      expect(pageErrors()).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
