/**
 * Issue 44.16: a match answering "already registered" (applyStatus 2) names the lender the person is
 * registered with, so the H5's confirm can say who (it offers no product: id and productName stay null).
 * The demo's Xining state (apps/server/src/modules/products/seed.ts STATE_DEMO_PRODUCTS): partner-e's
 * pre-check (its sandbox) has the person, and nothing else matches.
 */
import type { MatchResultData } from '@lm/shared/schemas/matching';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { partners, sandboxPartnerLeads } from '../src/db/schema.ts';
import { decryptField } from '../src/lib/crypto.ts';
import type { PartnerClient } from '../src/lib/partner-http.ts';
import { phoneHash } from '../src/lib/phone-hash.ts';
import { FORM } from './fixtures.ts';
import { BACKEND, body, loginAs, useTestApp } from './helpers.ts';

const ctx = useTestApp(() => ({ env: { PARTNER_SANDBOX: 'on' } }));
const db = () => ctx.app.database.db;

/** Over 50, a large amount, no contributions, assets or good credit, in Xining (e2e/demo-states.ts). */
const XINING_NOTHING_ELSE = {
  ...FORM,
  applyLimit: 4,
  socialSecurity: 0,
  housingFund: 0,
  insurance: 0,
  houseProperty: 0,
  carProperty: 0,
  sesameCredit: 0,
  creditInvestigation: 3,
  identity: '110101197003074515',
  workCity: '西宁市',
  workCityCode: '630100',
};

describe(`already registered at a lender (${BACKEND})`, () => {
  it('applyStatus 2 names the lender (save and the match key’s answer), offers no product', async () => {
    const { phone, token } = await loginAs(ctx.app);
    const [e] = await db()
      .select({ secretEnc: partners.signingSecretEnc, legalName: partners.legalName })
      .from(partners)
      .where(eq(partners.code, 'partner-e'));
    // partner-e's sandbox received this person before: its pre-check says so.
    await db()
      .insert(sandboxPartnerLeads)
      .values({
        partnerCode: 'partner-e',
        idempotencyKey: `pre-${phone}`,
        phoneHash: phoneHash(decryptField(ctx.app.services.keys.ring, e!.secretEnc!), phone),
        body: {},
      });
    // The pre-check reaches the sandbox through the app itself.
    const viaInject: PartnerClient = {
      post: async (url, init) => {
        const res = await ctx.app.inject({
          method: 'POST',
          url: new URL(url).pathname,
          payload: init.body,
          headers: { 'content-type': 'application/json' },
        });
        return { status: res.statusCode, text: res.body };
      },
    };
    const matching = ctx.app.services.matching as unknown as { d: { http: PartnerClient } };
    matching.d.http = viaInject;
    await db()
      .update(partners)
      .set({ dupCheckEndpoint: 'http://sandbox.local/api/dev/partner-sandbox/partner-e/dup-check' })
      .where(eq(partners.code, 'partner-e'));
    ctx.app.services.matching.invalidateCatalog();

    const saved = body<MatchResultData>(
      await ctx.app.inject({
        method: 'POST',
        url: '/api/user/info/save',
        payload: XINING_NOTHING_ELSE,
        headers: { accesstoken: token },
      }),
    );
    expect(saved.code).toBe(200);
    expect(saved.data).toMatchObject({
      applyStatus: 2,
      id: null,
      productName: null,
      thirdpartyTargetUrl: 'https://partner-e.example.com/login?from=lm',
      lender: { legalName: e!.legalName },
      mayAuthProductList: [],
    });
    expect(e!.legalName).toBe('南湖农村商业银行股份有限公司');

    const loaded = body<MatchResultData>(
      await ctx.app.inject({
        method: 'GET',
        url: `/api/user/info/match/${saved.data.matchKey}`,
        headers: { accesstoken: token },
      }),
    );
    expect(loaded.data).toMatchObject({
      applyStatus: 2,
      id: null,
      lender: { legalName: e!.legalName },
      thirdpartyTargetUrl: 'https://partner-e.example.com/login?from=lm',
    });
  });
});
