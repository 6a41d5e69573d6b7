/**
 * ADR 017: the authorise page of a re-match link (`/fill-information/common-authorize?options=
 * {"rqResult":…}`) is rendered by the server, so a person who opens the link sees the offers before
 * the app's scripts have arrived; the app then takes the page over and the consent works as usual.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { phonePage, shot, unexpectedErrors } from './browser.ts';
import { useServerAndBrowser } from './harness.ts';
import { apiCall, DEMO_FORM, loginPerson, type Person, signIn } from './person.ts';

interface Offer {
  id: string;
  productName: string;
  lender: { legalName: string };
}
interface Match {
  matchId: number;
  mayAuthProductList?: Offer[];
}

const e2e = useServerAndBrowser();
let person: Person;
let match: Match & Offer;

beforeAll(async () => {
  person = await loginPerson(e2e.server.url);
  match = await apiCall<Match & Offer>(e2e.server.url, '/api/user/info/save', {
    token: person.token,
    body: DEMO_FORM,
  });
  expect(match.productName).toBeTruthy();
});

const offers = () => [match, ...(match.mayAuthProductList ?? [])];
const link = () =>
  `${e2e.server.url}/fill-information/common-authorize?options=${encodeURIComponent(
    JSON.stringify({ adChannelCode: 'demo', rqResult: match }),
  )}`;

describe('a re-match link opened cold', () => {
  it('paints the offers without the app’s scripts, then the app takes over and the consent goes through', async () => {
    const { page, context, errors } = await phonePage(e2e.browser);
    await signIn(context, person);

    // 1. No script of the app arrives: the server's page still shows every offer and its lender.
    let blocked = 0;
    await context.route('**/assets/*.js', (route) => {
      blocked += 1;
      return route.abort();
    });
    const res = await page.goto(link(), { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    expect(await res?.text()).toContain('data-ssr="/fill-information/common-authorize"');
    for (const o of offers()) {
      await expect.poll(() => page.getByText(o.productName, { exact: true }).isVisible()).toBe(true);
      expect(await page.getByText(o.lender.legalName, { exact: true }).isVisible()).toBe(true);
    }
    expect(
      await page.getByText(`以下${offers().length}家机构可为您提供借款服务`, { exact: false }).isVisible(),
    ).toBe(true);
    // Not interactive until the app has it (a tick would be lost when the app replaces the page).
    expect(await page.locator('#lm-shell [inert]').count()).toBe(1);
    expect(blocked).toBeGreaterThan(0);
    await shot(page, 'rematch-link-server-rendered');

    // 2. With the scripts: the app replaces the server's page and the person consents to one lender.
    await context.unroute('**/assets/*.js');
    errors.length = 0;
    await page.reload({ waitUntil: 'load' });
    await expect.poll(() => page.locator('#lm-shell').count(), { timeout: 15_000 }).toBe(0);
    const first = offers()[0]!;
    const card = page.locator('li').filter({ has: page.getByText(first.productName, { exact: true }) });
    await card.locator('.adm-checkbox').click();
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/user/info/auth'));
    await page.getByRole('button', { name: '同意授权并申请（1家）' }).click();
    const body = (await (await answered).json()) as {
      code: number;
      data: { consented: { productId: string }[] };
    };
    expect(body.code).toBe(200);
    expect(body.data.consented.map((c) => c.productId)).toEqual([first.id]);
    await page.waitForURL(/\/fill-information\/success/, { timeout: 15_000 });
    expect(unexpectedErrors(errors)).toEqual([]);
    await context.close();
  }, 120_000);

  it('a link whose options carry no offer is the app’s page (from the tab’s stored match), never a server error', async () => {
    for (const options of ['{"rqResult":{}}', 'not json', '{"rqResult":[{"id":"<script>"}]}']) {
      const res = await fetch(
        `${e2e.server.url}/fill-information/common-authorize?options=${encodeURIComponent(options)}`,
      );
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).not.toContain('data-ssr=');
      // The app's own page: #root holds only its loading indicator until the app renders.
      expect(html).toMatch(/<div id="root"><div class="lm-boot"[^>]*><\/div><\/div>/);
    }
  });

  it('lender text in the link is shown as text, never run as markup', async () => {
    const hostile = { ...match, productName: '<img src=x onerror="window.__pwned=1">星河' };
    const res = await fetch(
      `${e2e.server.url}/fill-information/common-authorize?options=${encodeURIComponent(
        JSON.stringify({ rqResult: hostile }),
      )}`,
    );
    const html = await res.text();
    expect(html).toContain('data-ssr=');
    expect(html).toContain('&lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;星河');
    expect(html).not.toContain('<img src=x');
  });
});
