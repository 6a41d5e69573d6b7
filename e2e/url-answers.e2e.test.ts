/**
 * Issue 44.6: a person who already submitted the form opens the ad link again (`/?adChannelCode=demo`,
 * logged in): re-match → rematch-waiting → common-authorize. Every address the H5 goes to (each
 * main-frame navigation, and each history.pushState / replaceState) names the match by its opaque
 * key only: none of the person's answers (applyLimit, workCity, name, ID number …), by name or value.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { phonePage, shot, unexpectedErrors } from './browser.ts';
import { useServerAndBrowser } from './harness.ts';
import { apiCall, DEMO_FORM, loginPerson, type Person, signIn } from './person.ts';

const e2e = useServerAndBrowser();
let person: Person;

/** Query names a link may carry on this journey: the channel, the match key (also inside `options`). */
const ALLOWED = new Set(['adChannelCode', 'matchKey', 'options']);
/** The answers of the submitted form, by name (the channel code is the link's own). */
const ANSWER_NAMES = Object.keys(DEMO_FORM).filter((k) => k !== 'adChannelCode');
/** …and by value: every text answer of two characters or more (深圳市, 440300, 张三, the ID number). */
const ANSWER_VALUES = Object.entries(DEMO_FORM)
  .filter(([k, v]) => k !== 'adChannelCode' && typeof v === 'string' && v.length >= 2)
  .map(([, v]) => v as string);

/** The query names of `url`, those inside a JSON `options` parameter included. */
function queryNames(url: string): string[] {
  const params = new URL(url).searchParams;
  const names = [...params.keys()];
  const options = params.get('options');
  if (options) {
    const parsed = JSON.parse(options) as Record<string, unknown>;
    names.push(...Object.keys(parsed).map((k) => `options.${k}`));
  }
  return names;
}

beforeAll(async () => {
  person = await loginPerson(e2e.server.url, '135');
  // The form was submitted before (a lead with applyLimit 2, workCity 深圳市, name and ID number).
  const saved = await apiCall<{ matchKey: string }>(e2e.server.url, '/api/user/info/save', {
    token: person.token,
    body: DEMO_FORM,
  });
  expect(saved.matchKey).toBeTruthy();
});

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

describe('only the opaque key in a URL (issue 44.6)', () => {
  it('the submitted person’s ad link: no address of the journey carries a form answer', async () => {
    const { page, context, errors } = await phonePage(e2e.browser);
    close = () => context.close();
    await signIn(context, person);
    const addresses: string[] = [];
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame()) addresses.push(f.url());
    });
    // The H5's own history entries too (a router may push or replace without a navigation event).
    await context.exposeBinding('__recordHistory', (_source, url: string) => addresses.push(url));
    await context.addInitScript(() => {
      const record = (window as unknown as { __recordHistory: (u: string) => void }).__recordHistory;
      for (const name of ['pushState', 'replaceState'] as const) {
        const original = history[name].bind(history);
        history[name] = (data: unknown, unused: string, url?: string | URL | null) => {
          original(data, unused, url);
          void record(location.href);
        };
      }
    });
    const rematch = page.waitForResponse((r) => r.url().endsWith('/api/user/info/direct/match'), {
      timeout: 30_000,
    });
    await page.goto(`${e2e.server.url}/?adChannelCode=demo`);
    const match = ((await (await rematch).json()) as { data: { matchKey: string; productName: string } })
      .data;
    await page.waitForURL(/\/fill-information\/common-authorize/, { timeout: 30_000 });
    await expect
      .poll(() => page.getByText(match.productName, { exact: true }).isVisible(), { timeout: 10_000 })
      .toBe(true);
    await shot(page, 'url-answers-authorize');

    expect(addresses.some((u) => u.includes('/fill-information/rematch-waiting'))).toBe(true);
    const journey = addresses.filter((u) => /rematch-waiting|common-authorize/.test(u));
    expect(journey.length).toBeGreaterThanOrEqual(2);
    for (const url of addresses) {
      const names = queryNames(url);
      for (const name of names) {
        expect(ANSWER_NAMES, `${name} in ${url}`).not.toContain(name.replace(/^options\./, ''));
        expect(ALLOWED.has(name.replace(/^options\./, '')), `${name} in ${url}`).toBe(true);
      }
      const decoded = decodeURIComponent(url);
      for (const value of ANSWER_VALUES) expect(decoded, url).not.toContain(value);
    }
    // The match is still named: by its key.
    for (const url of journey) expect(decodeURIComponent(url)).toContain(match.matchKey);
    expect(unexpectedErrors(errors)).toEqual([]);
  }, 120_000);
});
