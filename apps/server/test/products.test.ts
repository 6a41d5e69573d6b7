import { shanghaiDate } from '@lm/shared/time';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partners, productCounters, products, productTotals } from '../src/db/schema.ts';
import { decryptField } from '../src/lib/crypto.ts';
import { todayCounters } from '../src/modules/caps/slots.ts';
import { SAMPLE_PROFILE } from '../src/modules/matching/fixtures.ts';
import { match } from '../src/modules/matching/match.ts';
import { canPublish } from '../src/modules/matching/publish.ts';
import type { ProductRules, Profile } from '../src/modules/matching/types.ts';
import { listPublishedForMatching } from '../src/modules/products/repository.ts';
import { DEMO_PARTNERS, DEMO_PRODUCTS, seedDemoProducts } from '../src/modules/products/seed.ts';
import { BACKEND, createTestApp, type TestContext } from './helpers.ts';

/** Noon in Shanghai: business hours for every demo product but the night one. */
const NOW = new Date('2026-11-22T12:00:00+08:00');

/** The engine tests' sample profile (Shenzhen employee). */
const PROFILE: Profile = SAMPLE_PROFILE;

describe(`partners and products (${BACKEND})`, () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => {
    await ctx?.close();
  });
  const db = () => ctx.app.database.db;
  const idOf = async (code: string) =>
    (await db().select({ id: products.id }).from(products).where(eq(products.code, code)))[0]!.id;

  it('seeds the demo partners and products at start, idempotently', async () => {
    const counts = async () => ({
      partners: (await db().select({ n: count() }).from(partners))[0]!.n,
      products: (await db().select({ n: count() }).from(products))[0]!.n,
      ids: (await db().select({ id: products.id, code: products.code }).from(products)).sort(
        (a, b) => a.id - b.id,
      ),
    });
    const first = await counts();
    expect(first.partners).toBe(DEMO_PARTNERS.length);
    expect(first.products).toBe(DEMO_PRODUCTS.length);
    expect(DEMO_PRODUCTS.length).toBeGreaterThanOrEqual(18);
    await seedDemoProducts(db(), ctx.app.services.keys.ring);
    await seedDemoProducts(db(), ctx.app.services.keys.ring);
    expect(await counts()).toEqual(first);
  });

  it('covers every company type, institution type, link type and rule kind', () => {
    const published = DEMO_PRODUCTS.filter((p) => p.status === 'published');
    expect(new Set(published.map((p) => p.companyType))).toEqual(
      new Set(['KAInstitution', 'RegionInstitution']),
    );
    expect(new Set(published.map((p) => p.institutionType))).toEqual(new Set([1, 2, 3, 4]));
    const linkTypes = new Set(published.map((p) => p.linkType));
    for (const t of [1, 2, 5, 6, 7, 8]) expect(linkTypes.has(t)).toBe(true);
    const whole = published.filter((p) => p.thirdpartyType === 7);
    expect(whole.length).toBeGreaterThan(0);
    for (const p of whole) expect(p.partnerProductName).toBeTruthy();
    const ruleKeys = new Set(published.flatMap((p) => Object.keys(p.rules ?? {})));
    const every: (keyof ProductRules)[] = [
      'citiesIn',
      'citiesOut',
      'ageMin',
      'ageMax',
      'amountMinFen',
      'amountMaxFen',
      'jobs',
      'requireSocialSecurity',
      'requireHousingFund',
      'requireInsurance',
      'requireHouse',
      'requireCar',
      'sesameMin',
      'creditRecord',
    ];
    for (const k of every) expect(ruleKeys.has(k), k).toBe(true);
    expect(DEMO_PRODUCTS.some((p) => p.status === 'paused')).toBe(true);
    expect(published.some((p) => p.dailyCap != null) && published.some((p) => p.totalCap != null)).toBe(true);
    expect(published.some((p) => p.activeHours)).toBe(true);
    for (const p of DEMO_PARTNERS)
      expect(p.allowedHosts).toEqual([expect.stringMatching(/^partner-[a-z]\.example\.com$/)]);
  });

  it('maps published products to the engine, each of them publishable', async () => {
    const list = await listPublishedForMatching(db());
    expect(list).toHaveLength(DEMO_PRODUCTS.filter((p) => p.status === 'published').length);
    for (const p of list) {
      expect(p.status).toBe('published');
      expect(canPublish(p), p.productName).toEqual([]);
      expect(p.id).toMatch(/^\d+$/);
    }
    const first = list.find((p) => p.productName === '星河信用贷')!;
    expect(first).toMatchObject({
      partnerLegalName: '星河消费金融有限公司',
      companyType: 'KAInstitution',
      institutionType: 1,
      linkType: 2,
      amountMinFen: 100_000,
      aprBps: 1800,
      dailyCap: 500,
      rules: { citiesIn: ['440000', '110000', '310000'], ageMin: 22, ageMax: 55 },
    });
    // The draft above 24 % a year is neither listed nor publishable.
    const draft = DEMO_PRODUCTS.find((p) => p.status === 'draft')!;
    expect(list.some((p) => p.productName === draft.productName)).toBe(false);
    expect(
      canPublish({ ...draft, aprBps: draft.aprBps ?? null, activeHours: null, partnerLegalName: 'x' }),
    ).toEqual([expect.objectContaining({ code: 'APR_TOO_HIGH' })]);
  });

  it('matches the sample profile: ranked eligible products and explained exclusions', async () => {
    const list = await listPublishedForMatching(db());
    const result = match(
      PROFILE,
      list,
      await todayCounters(db(), shanghaiDate(NOW)),
      { applications: [] },
      { now: NOW },
    );
    expect(result.eligible.length).toBeGreaterThan(0);
    expect(result.eligible.map((e) => e.rank)).toEqual(result.eligible.map((_, i) => i + 1));
    expect(result.eligible.length + result.excluded.length).toBe(list.length);
    for (const e of result.excluded) {
      expect(e.reasons.length).toBeGreaterThan(0);
      for (const r of e.reasons) expect(r.text).toMatch(/\p{Script=Han}/u);
    }
    const reasonOf = async (code: string) => {
      const id = String(await idOf(code));
      return result.excluded.find((e) => e.productId === id)?.reasons.map((r) => r.code);
    };
    expect(await reasonOf('f-yejian')).toContain('OUTSIDE_ACTIVE_HOURS');
    expect(await reasonOf('h-chengdu')).toContain('CITY_NOT_COVERED');
    expect(await reasonOf('h-saas')).toContain('CITY_EXCLUDED');
    expect(await reasonOf('e-chedai')).toContain('CITY_NOT_COVERED');
    expect(await reasonOf('b-crm')).toContain('JOB_NOT_ACCEPTED');
  });

  it('reads today’s and total counters; a reached cap excludes the product', async () => {
    const id = await idOf('a-xinyongdai');
    const day = shanghaiDate(NOW);
    await db()
      .insert(productCounters)
      .values([
        { productId: id, day, count: 500 },
        { productId: id, day: '2026-11-21', count: 7 },
      ]);
    await db().insert(productTotals).values({ productId: id, count: 900 });
    const counters = await todayCounters(db(), day);
    expect(counters[String(id)]).toEqual({ today: 500, total: 900 });
    const result = match(
      PROFILE,
      await listPublishedForMatching(db()),
      counters,
      { applications: [] },
      { now: NOW },
    );
    expect(result.eligible.some((e) => e.productId === String(id))).toBe(false);
    expect(result.excluded.find((e) => e.productId === String(id))?.reasons.map((r) => r.code)).toContain(
      'DAILY_CAP_REACHED',
    );
    await db().delete(productCounters);
    await db().delete(productTotals);
  });

  it('stores partner phones and signing secrets encrypted, with a masked phone', async () => {
    const rows = await db().select().from(partners);
    const ring = ctx.app.services.keys.ring;
    const stored = JSON.stringify(rows);
    for (const p of DEMO_PARTNERS) {
      expect(stored).not.toContain(p.contactPhone);
      if (p.signingSecret) expect(stored).not.toContain(p.signingSecret);
      const row = rows.find((r) => r.code === p.code)!;
      expect(row.contactPhoneEnc).toMatch(/^v1\./);
      expect(decryptField(ring, row.contactPhoneEnc)).toBe(p.contactPhone);
      expect(decryptField(ring, row.signingSecretEnc!)).toBe(p.signingSecret);
      expect(row.contactPhoneMasked).toBe(`${p.contactPhone.slice(0, 3)}****${p.contactPhone.slice(7)}`);
    }
  });
});
