import type { MatchResultData, ProductOffer } from '@lm/shared/schemas/matching';
import { shanghaiDate } from '@lm/shared/time';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchOffers, productCounters, products } from '../../src/db/schema.ts';
import { FORM } from '../fixtures.ts';
import { BACKEND, body, createTestApp, loginAs, PG_URL, type TestContext } from '../helpers.ts';

/** PostgreSQL only: 200 people matched at the same moment never push a product past its daily cap. */
let ctx: TestContext;
beforeAll(async () => {
  if (!PG_URL) throw new Error('TEST_DATABASE_URL is required for the PostgreSQL-only tests');
  ctx = await createTestApp({ env: { DATABASE_POOL_SIZE: '20' } });
});
afterAll(async () => ctx?.close());

describe(`caps under concurrency (${BACKEND})`, () => {
  it('200 parallel matches: every product stays within its daily cap, counters equal the offers', async () => {
    const db = ctx.app.database.db;
    // Small caps so that the 200 people compete for them.
    const CAP = 7;
    await db.update(products).set({ dailyCap: CAP }).where(eq(products.status, 'published'));
    ctx.app.services.matching.invalidateCatalog();

    const people = [];
    for (let i = 0; i < 200; i++) people.push(await loginAs(ctx.app));
    const answers = await Promise.all(
      people.map((p) =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/user/info/save',
          payload: FORM,
          headers: { accesstoken: p.token },
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode).filter((s) => s !== 200)).toEqual([]);
    const results = answers.map((a) => body<MatchResultData>(a).data);
    const offered = results.flatMap((r) => (r.id ? [r as ProductOffer, ...r.mayAuthProductList] : []));
    // Someone got offers, and once everything was taken people were told it is sold out.
    expect(offered.length).toBeGreaterThan(0);
    expect(results.some((r) => r.applyStatus === 0)).toBe(true);

    const day = shanghaiDate();
    const perProduct = new Map<string, number>();
    for (const o of offered) perProduct.set(o.id, (perProduct.get(o.id) ?? 0) + 1);
    for (const [id, n] of perProduct) expect(n, `product ${id}`).toBeLessThanOrEqual(CAP);

    const counters = await db
      .select({ productId: productCounters.productId, count: productCounters.count })
      .from(productCounters)
      .where(eq(productCounters.day, day));
    for (const c of counters) {
      expect(c.count, `counter of ${c.productId}`).toBeLessThanOrEqual(CAP);
      const open = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(matchOffers)
        .where(
          and(
            eq(matchOffers.productId, c.productId),
            eq(matchOffers.capDay, day),
            eq(matchOffers.status, 'offered'),
          ),
        );
      expect(c.count, `counter of ${c.productId} equals its open offers`).toBe(open[0]!.n);
    }
    // Every person got at most three lenders, each once.
    for (const r of results) {
      const offers = r.id ? [r as ProductOffer, ...r.mayAuthProductList] : [];
      expect(offers.length).toBeLessThanOrEqual(3);
      expect(new Set(offers.map((o) => o.lender.legalName)).size).toBe(offers.length);
    }
  });
});
