import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkInlineUrl } from '../../../web/src/features/consent/allowed-url.ts';
import { rowsOf } from '../../src/db/client.ts';
import { channels, partners, products, routeCodes } from '../../src/db/schema.ts';
import { partnerTargetUrl } from '../../src/lib/partner-url.ts';
import { safeTargetUrl } from '../../src/modules/channels/rules.ts';
import { FORM } from '../fixtures.ts';
import { BACKEND, body, loginAs, post, useTestApp } from '../helpers.ts';
import { staffLogin } from './fixtures.ts';

/**
 * Redirects (issue 8): /inline-page, planTargetUrl and thirdpartyTargetUrl never send a person to a
 * host outside the partner's / channel's allow-list. `H` is the allowed host; every template is an
 * attempt to leave it.
 */
const HOSTILE: ((h: string) => string)[] = [
  () => 'https://evil.example/x',
  () => 'http://evil.example/x',
  (h) => `https://${h}@evil.example/x`,
  (h) => `https://${h}:443@evil.example/`,
  (h) => `https://evil.example\\@${h}/`,
  (h) => `https://evil.example\\${h}/`,
  (h) => `https://${h}.evil.example/`,
  (h) => `https://evil.example/${h}`,
  (h) => `https://evil.example#@${h}`,
  (h) => `https://evil.example?@${h}`,
  (h) => `//evil.example/${h}`,
  (h) => `/\\evil.example/${h}`,
  (h) => `/\t/evil.example/${h}`,
  (h) => `javascript:alert('${h}')`,
  (h) => `JaVaScRiPt:alert('${h}')`,
  (h) => `data:text/html,<script>location='https://evil.example/${h}'</script>`,
  (h) => `vbscript:msgbox("${h}")`,
  () => 'https://ＥＶＩＬ.example/', // full-width letters normalise to evil.example
  () => 'https://evil。example/', // ideographic full stop
  () => 'https://xn--80ak6aa92e.com/', // punycode homograph
  (h) => `https://${h.replace('a', 'а')}/`, // Cyrillic а in the allowed host
  (h) => `https:evil.example/${h}`,
  (h) => `https:/\\evil.example/${h}`,
  (h) => ` https://evil.example/${h}`,
  (h) => `https://evil%2Eexample/${h}`,
  (h) => `https://${h}%2F@evil.example/`,
];
const LEAKS = /evil|ＥＶＩＬ|javascript:|vbscript:|data:text|xn--80ak6aa92e|。|\\u0430/i;

const ctx = useTestApp();
let app: FastifyInstance;
beforeAll(() => {
  app = ctx.app;
});

/** Every string in an answer that a browser would follow must not leave the allow-list. */
function expectNoHostileUrl(res: { body: string }, label: string) {
  const decoded = res.body.replace(/\\u([0-9a-f]{4})/gi, (_, x: string) =>
    String.fromCharCode(Number.parseInt(x, 16)),
  );
  expect(decoded, label).not.toMatch(LEAKS);
  expect(decoded.includes('а'), `${label}: Cyrillic homograph`).toBe(false);
}

async function plantEverywhere(make: (h: string) => string) {
  const db = app.database.db;
  const ps = await db
    .select({ id: products.id, hosts: partners.allowedHosts })
    .from(products)
    .innerJoin(partners, eq(products.partnerId, partners.id));
  for (const p of ps) {
    await db
      .update(products)
      .set({ targetUrl: make(p.hosts[0] ?? 'partner.example.com') })
      .where(eq(products.id, p.id));
  }
  const cs = await db.select({ id: channels.id, hosts: channels.allowedHosts }).from(channels);
  for (const c of cs) {
    await db
      .update(channels)
      .set({ planTargetUrl: make(c.hosts[0] ?? 'partner.example.com') })
      .where(eq(channels.id, c.id));
  }
  await db.update(routeCodes).set({ planTargetUrl: make('partner.example.com') });
}

describe(`server answers never carry a URL outside the allow-list (${BACKEND})`, () => {
  it('plan targets, route-code exchange, product pages, match results, consent answers and apply', async () => {
    const channelCodes = rowsOf<{ code: string }>(
      await app.database.db.execute(sql`select ad_channel_code as code from channels`),
    ).map((r) => r.code);
    const routes = rowsOf<{ code: string }>(
      await app.database.db.execute(sql`select route_code as code from route_codes`),
    ).map((r) => r.code);
    expect(channelCodes.length).toBeGreaterThan(3);
    expect(routes.length).toBeGreaterThan(0);
    for (const make of HOSTILE) {
      const label = make('H');
      await plantEverywhere(make);
      const user = await loginAs(app);
      const h = { accesstoken: user.token };
      for (const code of channelCodes.slice(0, 6)) {
        for (const url of [
          `/api/adChannel/h5Config?adChannelCode=${code}`,
          `/api/adChannel/plan/adChannelCode?adChannelCode=${code}`,
          `/api/getAdChannel?adChannelCode=${code}`,
        ]) {
          expectNoHostileUrl(await app.inject({ url }), `${label} ${url}`);
        }
      }
      for (const rc of routes) {
        const url = `/api/adChannel/exchange/adChannelCode?adRouteCode=${encodeURIComponent(rc)}`;
        expectNoHostileUrl(await app.inject({ url }), `${label} ${url}`);
      }
      for (const url of [
        '/api/product/productList',
        '/api/product/topRecommend',
        '/api/product/randomRecommend',
        '/api/product/h5product/union',
        '/api/product/columnRecommendProductList',
      ]) {
        expectNoHostileUrl(await app.inject({ url, headers: h }), `${label} ${url}`);
      }
      const saved = await post(app, '/api/user/info/save', FORM, h);
      expect(saved.statusCode, saved.body).toBe(200);
      expectNoHostileUrl(saved, `${label} match`);
      const r = body<{ id: string | null; mayAuthProductList: { id: string }[] }>(saved).data;
      const ids = [...(r.id ? [r.id] : []), ...r.mayAuthProductList.map((o) => o.id)];
      const consent = await app.inject({
        method: 'PUT',
        url: '/api/user/info/auth',
        payload: { productIds: ids },
        headers: h,
      });
      expectNoHostileUrl(consent, `${label} consent`);
      const all = await app.database.db.select({ id: products.id }).from(products);
      for (const p of all) {
        expectNoHostileUrl(
          await app.inject({ url: `/api/product/detail?productId=${p.id}`, headers: h }),
          `${label} detail ${p.id}`,
        );
        expectNoHostileUrl(
          await post(app, '/api/product/apply', { productId: String(p.id) }, h),
          `${label} apply ${p.id}`,
        );
      }
      for (const url of ['/api/user/applications', '/api/product/listTodayApplyProduct']) {
        expectNoHostileUrl(await app.inject({ url, headers: h }), `${label} ${url}`);
      }
    }
  });

  it('the console refuses to save a plan target or a product link outside the allow-list', async () => {
    const { token } = await staffLogin(app, 'admin');
    const h = { accesstoken: token };
    const [channel] = await app.database.db
      .select({ id: channels.id })
      .from(channels)
      .where(eq(channels.adChannelCode, 'demo'));
    // The previous test planted hostile targets straight into the table: start from a clean one.
    await app.database.db.update(channels).set({ planTargetUrl: null }).where(eq(channels.id, channel!.id));
    const detail = body<Record<string, unknown>>(
      await app.inject({ url: `/api/admin/channels/${channel!.id}`, headers: h }),
    ).data;
    const same = await app.inject({
      method: 'PUT',
      url: `/api/admin/channels/${channel!.id}`,
      payload: detail,
      headers: h,
    });
    expect(same.statusCode, `control: the unchanged channel saves (${same.body})`).toBe(200);
    const [product] = await app.database.db
      .select({ id: products.id, partnerId: products.partnerId })
      .from(products)
      .limit(1);
    const [partner] = await app.database.db
      .select({ hosts: partners.allowedHosts })
      .from(partners)
      .where(eq(partners.id, product!.partnerId));
    const partnerHost = partner!.hosts[0]!;
    await app.database.db
      .update(products)
      .set({ targetUrl: `https://${partnerHost}/apply` })
      .where(eq(products.id, product!.id));
    const pDetail = body<Record<string, unknown>>(
      await app.inject({ url: `/api/admin/products/${product!.id}`, headers: h }),
    ).data;
    const sameProduct = await app.inject({
      method: 'PUT',
      url: `/api/admin/products/${product!.id}`,
      payload: pDetail,
      headers: h,
    });
    expect(sameProduct.statusCode, `control: the unchanged product saves (${sameProduct.body})`).toBe(200);
    const before = JSON.stringify([
      await app.database.db.select().from(channels).where(eq(channels.id, channel!.id)),
      await app.database.db.select().from(products).where(eq(products.id, product!.id)),
    ]);
    for (const make of HOSTILE) {
      const hosts = (detail.allowedHosts as string[]) ?? [];
      const bad = make(hosts[0] ?? 'partner.example.com');
      const ch = await app.inject({
        method: 'PUT',
        url: `/api/admin/channels/${channel!.id}`,
        payload: { ...detail, planTargetUrl: bad },
        headers: h,
      });
      expect(ch.statusCode, `channel ${bad}: ${ch.body}`).toBe(400);
      const pr = await app.inject({
        method: 'PUT',
        url: `/api/admin/products/${product!.id}`,
        payload: { ...pDetail, targetUrl: make(partnerHost) },
        headers: h,
      });
      expect(pr.statusCode, `product ${bad}: ${pr.body}`).toBe(400);
    }
    const after = JSON.stringify([
      await app.database.db.select().from(channels).where(eq(channels.id, channel!.id)),
      await app.database.db.select().from(products).where(eq(products.id, product!.id)),
    ]);
    expect(after).toBe(before);
  });
});

/** Property tests of the pure checkers: whatever they accept, the browser goes to an allowed host. */
const ALLOWED = ['partner-a.example.com', 'm.lender.cn'];
const ORIGIN = 'https://h5.our-site.cn';
const piece = fc.constantFrom(
  'evil.example',
  'partner-a.example.com',
  'm.lender.cn',
  '@',
  ':',
  '/',
  '//',
  '\\',
  '%2F',
  '%2E',
  '%40',
  '.',
  '#',
  '?',
  ' ',
  '\t',
  '\n',
  '\u0000',
  'а', // Cyrillic
  'ＥＶＩＬ',
  '。',
  'xn--',
  'javascript:',
  'data:',
  'https:',
  'http:',
  'HTTPS://',
  '443',
  'user:pass',
);
const hostileUrl = fc.oneof(
  fc.array(piece, { minLength: 1, maxLength: 8 }).map((a) => a.join('')),
  fc
    .tuple(
      fc.constantFrom('https://', 'http://', '//', '/', 'https:', 'javascript:', ''),
      fc.array(piece, { maxLength: 6 }),
    )
    .map(([s, a]) => s + a.join('')),
  fc.webUrl({ withFragments: true, withQueryParameters: true }),
  fc.string({ maxLength: 60 }),
);

function browserHost(url: string, base = ORIGIN): string | null {
  try {
    return new URL(url, base).hostname.toLowerCase();
  } catch {
    return null;
  }
}

describe('allow-list checkers hold against hostile URLs (property tests)', () => {
  it('checkInlineUrl (H5 /inline-page): accepted ⇒ https, no credentials, host in the allow-list', () => {
    fc.assert(
      fc.property(hostileUrl, fc.boolean(), (raw, encode) => {
        const input = encode ? encodeURIComponent(raw) : raw;
        const r = checkInlineUrl(input, ALLOWED);
        if (!r.ok) return;
        const u = new URL(r.url);
        expect(u.protocol).toBe('https:');
        expect(u.username + u.password).toBe('');
        expect(ALLOWED).toContain(u.hostname);
        expect(ALLOWED).toContain(browserHost(r.url));
      }),
      { numRuns: 5000 },
    );
  });

  it('safeTargetUrl (channel plan target): accepted ⇒ same site or an allowed host', () => {
    fc.assert(
      fc.property(hostileUrl, (raw) => {
        const out = safeTargetUrl(raw, ALLOWED);
        if (out === null) return;
        const host = browserHost(out);
        expect(
          host === 'h5.our-site.cn' || ALLOWED.includes(host ?? ''),
          `${JSON.stringify(raw)} → ${host}`,
        ).toBe(true);
        // "https:host" is absolute to the server but relative (same site) to a browser on https: safe.
      }),
      { numRuns: 5000 },
    );
  });

  it('partnerTargetUrl (thirdpartyTargetUrl): accepted ⇒ http(s) to an allowed host', () => {
    fc.assert(
      fc.property(hostileUrl, (raw) => {
        const out = partnerTargetUrl(raw, ALLOWED);
        if (out === null) return;
        const u = new URL(out);
        expect(['https:', 'http:']).toContain(u.protocol);
        expect(ALLOWED).toContain(u.hostname);
      }),
      { numRuns: 5000 },
    );
  });

  it('the fixed hostile list is refused by all three checkers', () => {
    for (const make of HOSTILE) {
      for (const h of ALLOWED) {
        const raw = make(h);
        const inline = checkInlineUrl(raw, ALLOWED);
        if (inline.ok) expect(ALLOWED, raw).toContain(new URL(inline.url).hostname);
        const plan = safeTargetUrl(raw, ALLOWED);
        if (plan !== null)
          expect(
            ALLOWED.includes(browserHost(plan) ?? '') || browserHost(plan) === 'h5.our-site.cn',
            raw,
          ).toBe(true);
        const partner = partnerTargetUrl(raw, ALLOWED);
        if (partner !== null) expect(ALLOWED, raw).toContain(new URL(partner).hostname);
      }
    }
    // And the plain allowed URLs still pass (the checkers are not refusing everything).
    expect(checkInlineUrl('https://partner-a.example.com/apply', ALLOWED).ok).toBe(true);
    expect(checkInlineUrl(encodeURIComponent('https://m.lender.cn/x?y=1'), ALLOWED).ok).toBe(true);
    expect(safeTargetUrl('/login?adChannelCode=demo', ALLOWED)).toBe('/login?adChannelCode=demo');
    expect(partnerTargetUrl('https://PARTNER-A.example.com/a', ALLOWED)).not.toBeNull();
  });
});
