import { createHash } from 'node:crypto';
import type { MatchResultData } from '@lm/shared/schemas/matching';
import { shanghaiDate } from '@lm/shared/time';
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  consents,
  creditProfiles,
  leads,
  matchOffers,
  matchRuns,
  productCounters,
  products,
  productTotals,
} from '../src/db/schema.ts';
import { decryptField, encryptField } from '../src/lib/crypto.ts';
import { FORM, offersOf } from './fixtures.ts';
import { BACKEND, body, h5Call, loginAs, useTestApp } from './helpers.ts';

const ctx = useTestApp();

const db = () => ctx.app.database.db;
const call = (method: 'GET' | 'POST' | 'PUT', url: string, token?: string, payload?: unknown) =>
  h5Call(ctx.app, method, url, token, payload);
const save = (token: string, form: object = FORM) => call('POST', '/api/user/info/save', token, form);

describe(`save and match (${BACKEND})`, () => {
  it('requires login and a whole, valid form', async () => {
    expect((await call('POST', '/api/user/info/save', undefined, FORM)).statusCode).toBe(401);
    const { token } = await loginAs(ctx.app);
    const { realName: _drop, ...partial } = FORM;
    const res = await save(token, partial);
    expect(res.statusCode).toBe(400);
    expect(body(res).msg).toContain('真实姓名');
    const bad = await save(token, { ...FORM, identity: '110101199003074515' });
    expect(bad.statusCode).toBe(400);
    expect(body(bad).msg).toMatch(/身份证/);
    const wrongCode = await save(token, { ...FORM, job: 9 });
    expect(body(wrongCode).msg).toContain('职业身份');
  });

  it('answers ranked offers from different lenders with what the consent page names', async () => {
    const { token, uid } = await loginAs(ctx.app);
    const res = await save(token);
    expect(res.statusCode, res.body).toBe(200);
    const r = body<MatchResultData>(res).data;
    expect(r.applyStatus).toBe(1);
    expect(r.matchId).toBeGreaterThan(0);
    const offers = offersOf(r);
    expect(offers.length).toBeGreaterThan(1);
    expect(offers.length).toBeLessThanOrEqual(3);
    expect(new Set(offers.map((o) => o.lender.legalName)).size).toBe(offers.length);
    for (const o of offers) {
      expect(o.lender.legalName).toMatch(/公司/);
      expect(o.lender.contactPhone).toMatch(/\*\*\*\*/);
      expect(o.aprBps).toBeGreaterThan(0);
      expect(o.aprBps).toBeLessThanOrEqual(2400);
      expect(o.sharedFields.map((f) => f.label)).toContain('手机号');
      expect(o.agreement.version).toBeTruthy();
    }
    expect(offers.map((o) => o.rank)).toEqual(offers.map((_, i) => i + 1));

    // The person's status and the stored run (with the excluded products' reasons for the console).
    expect(
      body<{ submitStatus: number }>(await call('GET', '/api/user/info/detail', token)).data.submitStatus,
    ).toBe(1);
    const [run] = await db().select().from(matchRuns).where(eq(matchRuns.id, r.matchId!));
    expect(run!.userId).toBe(uid);
    expect(run!.excluded.length).toBeGreaterThan(0);
    expect(run!.excluded.every((x) => x.reasons.length > 0 && x.reasons.every((y) => y.text))).toBe(true);
    expect(run!.profileEnc).not.toContain('张三');
    const stored = await db().select().from(matchOffers).where(eq(matchOffers.runId, r.matchId!));
    expect(stored.map((o) => String(o.productId)).sort()).toEqual(offers.map((o) => o.id).sort());
    // The form was stored as the draft too.
    const shown = body<{ realName: string }>(await call('GET', '/api/user/info/form/show', token)).data;
    expect(shown.realName).toBe('张*');
  });

  it('direct/match needs a submitted form; an old-user re-match gives the slots back and re-offers', async () => {
    const { token } = await loginAs(ctx.app);
    const none = await call('POST', '/api/user/info/direct/match', token, { directMatchType: 0 });
    expect(none.statusCode).toBe(409);
    expect(body(none).code).toBe(1101);

    const first = body<MatchResultData>(await save(token)).data;
    const day = shanghaiDate();
    const ids = offersOf(first).map((o) => Number(o.id));
    const before = await db()
      .select()
      .from(productCounters)
      .where(and(inArray(productCounters.productId, ids), eq(productCounters.day, day)));
    const again = await call('POST', '/api/user/info/direct/match', token, {
      adChannelCode: 'demo',
      directMatchType: 0,
      phoneModel: 'HUAWEI P60',
    });
    expect(again.statusCode, again.body).toBe(200);
    const second = body<MatchResultData>(again).data;
    expect(offersOf(second).map((o) => o.id)).toEqual(offersOf(first).map((o) => o.id));
    const after = await db()
      .select()
      .from(productCounters)
      .where(and(inArray(productCounters.productId, ids), eq(productCounters.day, day)));
    // Released and reserved again: the same counts, not double.
    const sum = (rows: { count: number }[]) => rows.reduce((a, b) => a + b.count, 0);
    expect(sum(after)).toBe(sum(before));
    const old = await db().select().from(matchOffers).where(eq(matchOffers.runId, first.matchId!));
    expect(old.every((o) => o.status === 'released')).toBe(true);

    const bad = await call('POST', '/api/user/info/direct/match', token, { directMatchType: 9 });
    expect(bad.statusCode).toBe(400);
    expect(body(bad).msg).toContain('匹配类型');
  });

  it('a second match keeps the open offers and offers other lenders only', async () => {
    const { token } = await loginAs(ctx.app);
    const first = body<MatchResultData>(await save(token)).data;
    const firstLenders = new Set(offersOf(first).map((o) => o.lender.legalName));
    const res = await call('POST', '/api/user/info/direct/match', token, { directMatchType: 3 });
    const second = body<MatchResultData>(res).data;
    for (const o of offersOf(second)) expect(firstLenders.has(o.lender.legalName)).toBe(false);
    const open = await db().select().from(matchOffers).where(eq(matchOffers.runId, first.matchId!));
    expect(open.every((o) => o.status === 'offered')).toBe(true);
  });
});

describe(`credit channels (${BACKEND})`, () => {
  it('a CRM channel (credit status open) needs a passed face check before matching', async () => {
    const { token, uid } = await loginAs(ctx.app, undefined, { adChannelCode: 'demo-crm' });
    const refused = await save(token, { ...FORM, adChannelCode: 'demo' });
    expect(refused.statusCode).toBe(409);
    expect(body(refused).code).toBe(1104);
    expect(body(refused).msg).toBe('请先完成人脸认证');
    // The form is kept all the same.
    expect(
      body<{ realName?: string }>(await call('GET', '/api/user/info/form/show', token)).data.realName,
    ).toBe('张*');
    await db()
      .insert(creditProfiles)
      .values({ userId: uid, dataEnc: encryptField(ctx.app.services.keys.ring, '{}'), auditStatus: 1 });
    expect((await save(token)).statusCode).toBe(409);
    await db().update(creditProfiles).set({ auditStatus: 2 }).where(eq(creditProfiles.userId, uid));
    const ok = await save(token);
    expect(ok.statusCode, ok.body).toBe(200);
  });
});

describe(`per-lender consent (${BACKEND})`, () => {
  it('records each ticked lender with agreement version and text hash, writes its lead, declines the rest', async () => {
    const { token, uid, phone } = await loginAs(ctx.app);
    const r = body<MatchResultData>(await save(token)).data;
    const offers = offersOf(r);
    const ticked = offers[0]!;
    const res = await call('PUT', '/api/user/info/auth', token, {
      productIds: [ticked.id],
      matchId: r.matchId,
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = body<{
      submitStatus: number;
      consented: { productId: string; consentId: number; lenderName: string; aprBps: number | null }[];
      declined: string[];
    }>(res).data;
    expect(data.submitStatus).toBe(10);
    expect(data.consented.map((c) => c.productId)).toEqual([ticked.id]);
    // The result names the lender (legal name) and the APR of what was consented to.
    expect(data.consented[0]).toMatchObject({ lenderName: ticked.lender.legalName, aprBps: ticked.aprBps });
    expect(data.declined.sort()).toEqual(
      offers
        .slice(1)
        .map((o) => o.id)
        .sort(),
    );

    const [consent] = await db().select().from(consents).where(eq(consents.userId, uid));
    expect(consent!.productId).toBe(Number(ticked.id));
    expect(consent!.agreementVersion).toBe(ticked.agreement.version);
    expect(consent!.ip).toBeTruthy();
    expect(consent!.userAgent).toBe('vitest-agent');
    expect(consent!.fields).toEqual(ticked.sharedFields.map((f) => f.key));

    // The exact text consented to: its hash is the consent's, and it names the lender.
    const text = body<{ content: string; textHash: string; consentedAt: string }>(
      await call('GET', `/api/user/info/protocol2/getContent?productId=${ticked.id}`, token),
    ).data;
    expect(createHash('sha256').update(text.content).digest('hex')).toBe(consent!.textHash);
    expect(text.textHash).toBe(consent!.textHash);
    expect(text.content).toContain(ticked.lender.legalName);
    const preview = body<{ textHash: string }>(
      await call(
        'GET',
        `/api/user/info/protocol/information-agreement?productId=${ticked.id}&adChannelCode=${FORM.adChannelCode}`,
      ),
    ).data;
    expect(preview.textHash).toBe(consent!.textHash);

    // The lead carries only the consented fields, encrypted.
    const [lead] = await db().select().from(leads).where(eq(leads.consentId, consent!.id));
    expect(lead!.payloadEnc).not.toContain(phone);
    const payload = JSON.parse(decryptField(ctx.app.services.keys.ring, lead!.payloadEnc)) as Record<
      string,
      unknown
    >;
    expect(Object.keys(payload).sort()).toEqual([...consent!.fields].sort());
    if (consent!.fields.includes('mobile')) expect(payload.mobile).toBe(phone);
    expect(lead!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);

    const offersAfter = await db().select().from(matchOffers).where(eq(matchOffers.runId, r.matchId!));
    expect(offersAfter.filter((o) => o.status === 'consented').map((o) => String(o.productId))).toEqual([
      ticked.id,
    ]);
    expect(offersAfter.filter((o) => o.status === 'declined')).toHaveLength(offers.length - 1);
    expect(
      body<{ submitStatus: number }>(await call('GET', '/api/user/info/detail', token)).data.submitStatus,
    ).toBe(10);

    // Consenting again (double tap) or to a product never offered is refused.
    const twice = await call('PUT', '/api/user/info/auth', token, { productIds: [ticked.id] });
    expect(twice.statusCode).toBe(409);
    expect(body(twice).code).toBe(1102);

    // The consented lender is locked out of the next match (30-day re-apply lockout).
    const next = body<MatchResultData>(await save(token)).data;
    expect(offersOf(next).map((o) => o.lender.legalName)).not.toContain(ticked.lender.legalName);
  });

  it('refuses products not offered, empty lists and anonymous callers', async () => {
    const { token } = await loginAs(ctx.app);
    const none = await call('PUT', '/api/user/info/auth', token, { productIds: ['1'] });
    expect(body(none).code).toBe(1101);
    const r = body<MatchResultData>(await save(token)).data;
    const offered = new Set(offersOf(r).map((o) => o.id));
    const [other] = await db().select({ id: products.id }).from(products);
    const notOffered = offered.has(String(other!.id)) ? '999999' : String(other!.id);
    const res = await call('PUT', '/api/user/info/auth', token, { productIds: [notOffered] });
    expect(res.statusCode).toBe(409);
    expect(body<{ productIds: string[] }>(res).data.productIds).toEqual([notOffered]);
    expect(body(await call('PUT', '/api/user/info/auth', token, { productIds: [] })).msg).toContain(
      '至少选择',
    );
    expect((await call('PUT', '/api/user/info/auth', undefined, { productIds: ['1'] })).statusCode).toBe(401);
    expect((await call('GET', '/api/user/info/protocol2/getContent', token)).statusCode).toBe(404);
    expect((await call('GET', '/api/user/info/protocol/nope?productId=1')).statusCode).toBe(404);
  });
});

describe(`caps (${BACKEND})`, () => {
  it('a product at its daily cap is not offered; everything capped answers applyStatus 0 (sold out)', async () => {
    const { token } = await loginAs(ctx.app);
    const r = body<MatchResultData>(await save(token)).data;
    const ids = offersOf(r).map((o) => Number(o.id));
    // Cap every published product at what it has today: nothing is left for anyone.
    const day = shanghaiDate();
    const all = await db().select({ id: products.id }).from(products).where(eq(products.status, 'published'));
    const saved = await db().select({ id: products.id, dailyCap: products.dailyCap }).from(products);
    try {
      for (const p of all) {
        await db().insert(productCounters).values({ productId: p.id, day, count: 0 }).onConflictDoNothing();
        const [c] = await db()
          .select({ count: productCounters.count })
          .from(productCounters)
          .where(and(eq(productCounters.productId, p.id), eq(productCounters.day, day)));
        await db().update(products).set({ dailyCap: c!.count }).where(eq(products.id, p.id));
      }
      ctx.app.services.matching.invalidateCatalog();
      const { token: other } = await loginAs(ctx.app);
      const sold = body<MatchResultData>(await save(other)).data;
      expect(sold.applyStatus).toBe(0);
      expect(sold.id).toBeNull();
      // The first person still holds their slots; a re-match gives them back and takes them again.
      const again = body<MatchResultData>(
        await call('POST', '/api/user/info/direct/match', token, { directMatchType: 0 }),
      ).data;
      expect(
        offersOf(again)
          .map((o) => Number(o.id))
          .sort(),
      ).toEqual([...ids].sort());
      const totals = await db().select().from(productTotals).where(inArray(productTotals.productId, ids));
      expect(totals.every((t) => t.count >= 1)).toBe(true);
    } finally {
      for (const p of saved)
        await db().update(products).set({ dailyCap: p.dailyCap }).where(eq(products.id, p.id));
      ctx.app.services.matching.invalidateCatalog();
    }
  });
});
