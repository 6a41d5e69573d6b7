import type { AddressInfo } from 'node:net';
import { shanghaiMonthOf } from '@lm/shared/money';
import { shanghaiDayStart } from '@lm/shared/time';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leads, ledgerEntries, partners, productPrices, products } from '../../src/db/schema.ts';
import { LedgerPoster } from '../../src/modules/ledger/poster.ts';
import { LedgerRepository } from '../../src/modules/ledger/repository.ts';
import { nextMonth } from '../../src/modules/ledger/rules.ts';
import { consentToApiOffers } from '../fixtures.ts';
import { BACKEND, createTestApp, loginAs, newPhone, PG_URL, type TestContext } from '../helpers.ts';
import { pointLendersAt } from '../lenders.ts';

/**
 * PostgreSQL only (issue 48.3 "concurrent deliveries, returns and a month close never lose or double an
 * entry"): all three at once on one month — four sweeps booking freshly delivered leads, lenders returning
 * booked leads, and the month's close. Afterwards every delivery is booked once, every return reverses its lead
 * once, and nothing entered the month after its close committed.
 */
const CPL = 2_500;
let ctx: TestContext;
beforeAll(async () => {
  if (!PG_URL) throw new Error('TEST_DATABASE_URL is required for the PostgreSQL-only tests');
  ctx = await createTestApp({
    env: { DATABASE_POOL_SIZE: '20', PARTNER_SANDBOX: 'on', DELIVERY_WORKER: 'off' },
  });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = ctx.app.server.address() as AddressInfo;
  await pointLendersAt(ctx.app, `http://127.0.0.1:${port}/api/dev/partner-sandbox`);
  const db = ctx.app.database.db;
  await db.update(partners).set({ maxReturnRateBps: 10_000 });
  const all = await db.select({ id: products.id }).from(products);
  const start = shanghaiDayStart(`${shanghaiMonthOf(new Date())}-01`);
  await db
    .insert(productPrices)
    .values(
      all.map((p) => ({ productId: p.id, model: 'cpl' as const, amountFen: CPL, effectiveFrom: start })),
    );
});
afterAll(async () => ctx?.close());

/** `n` people who consent to the API lenders; their lead ids. */
async function consented(n: number): Promise<number[]> {
  const uids: number[] = [];
  for (let i = 0; i < n; i++) {
    const { token, uid } = await loginAs(ctx.app, newPhone(), { adChannelCode: 'demo' });
    const { auth } = await consentToApiOffers(ctx.app, token);
    expect(auth.statusCode, auth.body).toBe(200);
    uids.push(uid);
  }
  const rows = await ctx.app.database.db
    .select({ id: leads.id })
    .from(leads)
    .where(inArray(leads.userId, uids));
  return rows.map((r) => r.id);
}

describe(`deliveries, returns and a month close at once (${BACKEND})`, () => {
  it('each delivery booked once, each return reversing its lead once, nothing in the month after its close', async () => {
    const app = ctx.app;
    const db = app.database.db;
    const month = shanghaiMonthOf(new Date());
    // Booked leads to return, and leads delivered a moment ago that no sweep has booked yet.
    const toReturn = await consented(4);
    await app.services.delivery.drain();
    const keys = await db
      .select({ id: leads.id, key: leads.idempotencyKey, code: partners.code, status: leads.status })
      .from(leads)
      .innerJoin(partners, eq(partners.id, leads.partnerId))
      .where(inArray(leads.id, toReturn));
    expect(keys.every((k) => k.status === 'delivered')).toBe(true);
    const fresh = await consented(6);
    await db.execute(
      sql`update leads set status = 'delivered', delivered_at = now() where id in ${sql.raw(`(${fresh.join(',')})`)}`,
    );

    const posters = Array.from(
      { length: 4 },
      () => new LedgerPoster({ repo: new LedgerRepository(db), log: app.log, batch: 2 }),
    );
    const sweeping = posters.map(async (p) => {
      for (let i = 0; i < 6; i++) await p.runOnce();
    });
    const returning = keys.map((k) =>
      app.inject({
        method: 'POST',
        url: `/api/dev/partner-sandbox/${k.code}/returns`,
        payload: { leadId: k.key, reason: 'invalid_phone' },
      }),
    );
    const inMonth = async () => {
      const [row] = await db
        .select({
          n: sql<number>`count(*)::int`,
          sum: sql<string>`coalesce(sum(${ledgerEntries.amountFen}), 0)::text`,
        })
        .from(ledgerEntries)
        .where(eq(ledgerEntries.month, month));
      return { n: Number(row!.n), sum: Number(row!.sum) };
    };
    let atClose: { n: number; sum: number } | null = null;
    const closing = (async () => {
      // In the middle of it: once the first return is answered (sweeps still going, other returns in flight).
      await Promise.race(returning);
      const closed = await app.services.ledger.close(month, null);
      atClose = await inMonth();
      return closed;
    })();
    const [answers, closed] = await Promise.all([Promise.all(returning), closing, Promise.all(sweeping)]);
    expect(closed).toBe(true);
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);
    // Sweeps for whatever the rounds left (they took the same oldest 2 at once), until nothing is due.
    while ((await posters[0]!.runOnce()) > 0);

    const entries = await db
      .select()
      .from(ledgerEntries)
      .where(inArray(ledgerEntries.leadId, [...toReturn, ...fresh]));
    // Every fresh delivery booked once, at its price, in the month or (after the close) the next.
    for (const id of fresh) {
      const cpl = entries.filter((e) => e.leadId === id && e.reference === `lead:${id}:cpl`);
      expect(cpl, `lead ${id}`).toHaveLength(1);
      expect(cpl[0]!.amountFen).toBe(CPL);
      expect([month, nextMonth(month)]).toContain(cpl[0]!.month);
      expect(cpl[0]!.eventMonth).toBe(month);
    }
    // Every returned lead reversed once: its lender entries net to nothing.
    for (const id of toReturn) {
      const mine = entries.filter((e) => e.leadId === id && e.partyType === 'lender');
      expect(
        mine.filter((e) => e.kind === 'return'),
        `lead ${id}`,
      ).toHaveLength(1);
      expect(mine.reduce((s, e) => s + e.amountFen, 0)).toBe(0);
    }
    // The closed month never moved after its close committed; what came later is in the next month, marked late.
    expect(await inMonth()).toEqual(atClose);
    const later = await db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.month, nextMonth(month)), eq(ledgerEntries.eventMonth, month)));
    expect(later.length + (atClose as unknown as { n: number }).n).toBe(
      (await db.select({ n: sql<number>`count(*)::int` }).from(ledgerEntries)).map((r) => Number(r.n))[0],
    );
  });
});
