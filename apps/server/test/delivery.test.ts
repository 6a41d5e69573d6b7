import type { MatchResultData, ProductOffer } from '@lm/shared/schemas/matching';
import { eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { consents, leadAttempts, leads, partners, sandboxPartnerLeads } from '../src/db/schema.ts';
import { decryptField } from '../src/lib/crypto.ts';
import type { PartnerClient } from '../src/lib/partner-http.ts';
import { phoneHash } from '../src/lib/phone-hash.ts';
import { sign } from '../src/modules/delivery/signing.ts';
import { DEMO_PARTNERS } from '../src/modules/products/seed.ts';
import { consentToApiOffers, FORM } from './fixtures.ts';
import { BACKEND, body, loginAs, useTestApp } from './helpers.ts';
import { deliverAll, pointLendersAt, quickDeliveryEnv, SECRETS, useLocalPartner } from './lenders.ts';

const partner = useLocalPartner();
const ctx = useTestApp(() => ({ env: { ...quickDeliveryEnv(partner.url, 4), PARTNER_SANDBOX: 'on' } }));
beforeAll(() => pointLendersAt(ctx.app, partner.url));

const db = () => ctx.app.database.db;

/** A person who consents to every offered API-mode product; answers their lead ids. */
async function consentToApiProducts(): Promise<{ leadIds: number[]; offers: ProductOffer[] }> {
  const { token } = await loginAs(ctx.app);
  const { offers, auth } = await consentToApiOffers(ctx.app, token);
  expect(offers.length, 'the sample form matches at least one API lender').toBeGreaterThan(0);
  expect(auth.statusCode, auth.body).toBe(200);
  const ids = body<{ consented: { consentId: number }[] }>(auth).data.consented.map((c) => c.consentId);
  const rows = await db().select({ id: leads.id }).from(leads).where(inArray(leads.consentId, ids));
  return { leadIds: rows.map((x) => x.id), offers };
}

describe(`lead delivery (${BACKEND})`, () => {
  it('fails, times out, then succeeds: one lead for the partner, signed, only the consented fields', async () => {
    partner.script = (attempt) =>
      attempt === 1 ? { status: 500 } : attempt === 2 ? { holdStatus: 503 } : { status: 201 };
    const { leadIds } = await consentToApiProducts();
    await deliverAll(ctx.app, leadIds);

    const rows = await db().select().from(leads).where(inArray(leads.id, leadIds));
    for (const lead of rows) {
      expect(lead.status).toBe('delivered');
      expect(lead.attempts).toBe(3);
      expect(lead.partnerRef).toBe(`P-${lead.idempotencyKey.slice(0, 8)}`);
      const attempts = await db()
        .select()
        .from(leadAttempts)
        .where(eq(leadAttempts.leadId, lead.id))
        .orderBy(leadAttempts.attempt);
      expect(attempts.map((a) => a.outcome)).toEqual(['retry', 'retry', 'delivered']);
      expect(attempts[0]!.httpStatus).toBe(500);
      expect(attempts[1]!.error).toMatch(/超时/);
      // The held second try was given up by us (its connection closed), not answered late.
      expect(partner.abandoned.filter((k) => k === lead.idempotencyKey)).toHaveLength(1);
      expect(attempts[2]!.httpStatus).toBe(201);

      const sent = partner.requests.filter((r) => r.key === lead.idempotencyKey);
      expect(sent).toHaveLength(3);
      expect(sent.every((s) => s.signatureOk && s.body.leadId === lead.idempotencyKey)).toBe(true);
      expect(partner.accepted.has(lead.idempotencyKey)).toBe(true);
      const [consent] = await db().select().from(consents).where(eq(consents.id, lead.consentId));
      const fields = sent[2]!.body.fields as Record<string, unknown>;
      expect(Object.keys(fields).sort()).toEqual([...consent!.fields].sort());
      expect(sent[2]!.body.agreement).toEqual({
        version: consent!.agreementVersion,
        textHash: consent!.textHash,
      });
    }
  });

  it('moves a lead to the dead letters after the configured tries, every attempt recorded', async () => {
    partner.script = () => ({ status: 503 });
    const { leadIds } = await consentToApiProducts();
    await deliverAll(ctx.app, leadIds);
    const rows = await db().select().from(leads).where(inArray(leads.id, leadIds));
    for (const lead of rows) {
      expect(lead.status).toBe('dead');
      expect(lead.attempts).toBe(4);
      expect(lead.lastError).toBe('HTTP 503');
      const attempts = await db().select().from(leadAttempts).where(eq(leadAttempts.leadId, lead.id));
      expect(attempts.map((a) => a.outcome).sort()).toEqual(['dead', 'retry', 'retry', 'retry']);
    }
    // Nothing more is sent for a dead lead.
    const before = partner.requests.length;
    await ctx.app.services.delivery.runOnce();
    expect(partner.requests.length).toBe(before);
  });

  it('a partner that already has the lead (409) counts as delivered', async () => {
    partner.script = () => ({ status: 409 });
    const { leadIds } = await consentToApiProducts();
    await deliverAll(ctx.app, leadIds);
    const rows = await db().select().from(leads).where(inArray(leads.id, leadIds));
    expect(rows.every((l) => l.status === 'delivered' && l.attempts === 1)).toBe(true);
  });

  it('two workers never send the same lead at once', async () => {
    partner.script = () => ({ hangMs: 100, thenStatus: 200 });
    const { leadIds } = await consentToApiProducts();
    const { DeliveryWorker } = await import('../src/modules/delivery/worker.ts');
    const { DeliveryRepository } = await import('../src/modules/delivery/repository.ts');
    const { deliveryConfig } = await import('../src/plugins/app/services.ts');
    const other = new DeliveryWorker({
      repo: new DeliveryRepository(db()),
      ring: ctx.app.services.keys.ring,
      log: ctx.app.log,
      config: deliveryConfig(ctx.app.config),
      http: ctx.app.services.partnerHttp,
    });
    const keys = (await db().select().from(leads).where(inArray(leads.id, leadIds))).map(
      (l) => l.idempotencyKey,
    );
    await Promise.all([ctx.app.services.delivery.runOnce(), other.runOnce()]);
    for (const key of keys) expect(partner.requests.filter((r) => r.key === key)).toHaveLength(1);
  });
});

describe(`partner callbacks and the sandbox (${BACKEND})`, () => {
  const signed = (secret: string, payload: object, headers: Record<string, string> = {}) => {
    const raw = JSON.stringify(payload);
    const ts = Math.floor(Date.now() / 1000);
    return {
      payload: raw,
      headers: {
        'content-type': 'application/json',
        'x-lm-timestamp': String(ts),
        'x-lm-signature': sign(secret, ts, raw),
        ...headers,
      },
    };
  };

  it('matches a signed callback back to its lead; a bad signature is refused', async () => {
    const { leadIds } = await consentToApiProducts();
    const [lead] = await db()
      .select({ key: leads.idempotencyKey, partnerCode: partners.code })
      .from(leads)
      .innerJoin(partners, eq(leads.partnerId, partners.id))
      .where(eq(leads.id, leadIds[0]!));
    const secret = SECRETS.get(lead!.partnerCode)!;
    const payload = { leadId: lead!.key, status: 'approved', partnerRef: 'R-1' };
    const forged = await ctx.app.inject({
      method: 'POST',
      url: '/api/partner/callback',
      ...signed('wrong-secret', payload, { 'x-lm-partner': lead!.partnerCode }),
    });
    expect(forged.statusCode).toBe(401);
    expect(body(forged).code).toBe(1103);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/partner/callback',
      ...signed(secret, payload, { 'x-lm-partner': lead!.partnerCode }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const [after] = await db().select().from(leads).where(eq(leads.id, leadIds[0]!));
    expect(after!.partnerRef).toBe('R-1');
    expect(after!.callback).toEqual({ status: 'approved' });
    // Another partner cannot settle this lead.
    const other = DEMO_PARTNERS.find((p) => p.code !== lead!.partnerCode)!;
    const wrong = await ctx.app.inject({
      method: 'POST',
      url: '/api/partner/callback',
      ...signed(other.signingSecret!, payload, { 'x-lm-partner': other.code }),
    });
    expect(wrong.statusCode).toBe(404);
  });

  it('the dev sandbox checks signatures, keeps one lead per idempotency key and answers pre-checks', async () => {
    const code = DEMO_PARTNERS[0]!.code;
    const secret = SECRETS.get(code)!;
    const lead = { leadId: 'k-123', fields: { mobile: '13900001111' } };
    const url = `/api/dev/partner-sandbox/${code}/leads`;
    const bad = await ctx.app.inject({
      method: 'POST',
      url,
      ...signed('nope', lead, { 'idempotency-key': 'k-123' }),
    });
    expect(bad.statusCode).toBe(401);
    const first = await ctx.app.inject({
      method: 'POST',
      url,
      ...signed(secret, lead, { 'idempotency-key': 'k-123' }),
    });
    expect(first.json()).toMatchObject({ duplicate: false });
    const again = await ctx.app.inject({
      method: 'POST',
      url,
      ...signed(secret, lead, { 'idempotency-key': 'k-123' }),
    });
    expect(again.json()).toMatchObject({ duplicate: true });
    const rows = await db()
      .select()
      .from(sandboxPartnerLeads)
      .where(eq(sandboxPartnerLeads.partnerCode, code));
    expect(rows).toHaveLength(1);
    const check = (phone: string) =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/dev/partner-sandbox/${code}/dup-check`,
        payload: { phoneHash: phoneHash(secret, phone) },
      });
    expect((await check('13900001111')).json()).toEqual({ exists: true });
    expect((await check('13900002222')).json()).toEqual({ exists: false });
  });

  it('a lender whose duplicate pre-check has the person is not offered', async () => {
    const { phone, token } = await loginAs(ctx.app);
    const first = body<MatchResultData>(
      await ctx.app.inject({
        method: 'POST',
        url: '/api/user/info/save',
        payload: FORM,
        headers: { accesstoken: token },
      }),
    ).data;
    const apiOffer = [first as ProductOffer, ...first.mayAuthProductList].find((o) =>
      [2, 6].includes(o.linkType),
    );
    expect(apiOffer, 'an offer of link type 2 or 6').toBeTruthy();
    const [p] = await db()
      .select({ code: partners.code, secretEnc: partners.signingSecretEnc })
      .from(partners)
      .where(eq(partners.legalName, apiOffer!.lender.legalName));
    const secret = decryptField(ctx.app.services.keys.ring, p!.secretEnc!);
    // The sandbox lender received this person before: its pre-check says so.
    await db()
      .insert(sandboxPartnerLeads)
      .values({
        partnerCode: p!.code,
        idempotencyKey: `pre-${phone}`,
        phoneHash: phoneHash(secret, phone),
        body: {},
      });
    // Point this lender's pre-check at the sandbox through the app itself.
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
    const http = matching.d.http;
    matching.d.http = viaInject;
    await db()
      .update(partners)
      .set({ dupCheckEndpoint: `http://sandbox.local/api/dev/partner-sandbox/${p!.code}/dup-check` })
      .where(eq(partners.code, p!.code));
    ctx.app.services.matching.invalidateCatalog();
    try {
      const again = body<MatchResultData>(
        await ctx.app.inject({
          method: 'POST',
          url: '/api/user/info/direct/match',
          payload: { directMatchType: 0 },
          headers: { accesstoken: token },
        }),
      ).data;
      const lenders = (again.id ? [again as ProductOffer, ...again.mayAuthProductList] : []).map(
        (o) => o.lender.legalName,
      );
      expect(lenders).not.toContain(apiOffer!.lender.legalName);
    } finally {
      await db().update(partners).set({ dupCheckEndpoint: null }).where(eq(partners.code, p!.code));
      matching.d.http = http;
      ctx.app.services.matching.invalidateCatalog();
    }
  });
});
