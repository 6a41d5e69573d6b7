import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leads, partners } from '../src/db/schema.ts';
import { DEMO_PARTNERS } from '../src/modules/products/seed.ts';
import { consentToApiOffers } from './fixtures.ts';
import { BACKEND, createTestApp, loginAs, type TestContext } from './helpers.ts';
import { LocalPartner } from './partner-server.ts';

/**
 * The polling worker (what `npm start` and `npm run worker` run) keeps deliveries in flight without
 * waiting for a round's slowest one, and at most DELIVERY_PARTNER_CONCURRENCY of one lender: a lender
 * that hangs holds up only its own leads. (A worker that sent rounds of 20 and waited for each round
 * to end kept every other lender's leads waiting for the hanging one.)
 */
const SECRETS = new Map(DEMO_PARTNERS.map((p) => [p.code, p.signingSecret!]));
const secretOfPath = (path: string) => SECRETS.get(path.split('/')[1] ?? '') ?? 'unknown';
const PER_PARTNER = 3;

let ctx: TestContext;
// The hanging lender never answers (until the caller gives up): no race between its clock and the
// healthy lenders' deliveries on a busy machine.
const slow = new LocalPartner(secretOfPath, () => ({ holdStatus: 200 }));
const healthy = new LocalPartner(secretOfPath, () => ({ status: 200 }));

beforeAll(async () => {
  await slow.start();
  await healthy.start();
  ctx = await createTestApp({
    env: {
      DELIVERY_TIMEOUT_MS: '20000',
      DELIVERY_PARTNER_CONCURRENCY: String(PER_PARTNER),
      PARTNER_SANDBOX: 'on',
      // The two local lenders on the loopback: allowed by their exact origins (ADR 019).
      PARTNER_TEST_ORIGINS: `${slow.url},${healthy.url}`,
    },
  });
});
afterAll(async () => {
  // Stop claiming first, then close the held connections, so the deliveries in flight end now
  // rather than at the 20 s timeout.
  const stopping = ctx?.app.services.delivery.stop();
  await slow.stop();
  await stopping;
  await healthy.stop();
  await ctx?.close();
});

const db = () => ctx.app.database.db;

describe(`delivery worker: one hanging lender does not hold up the others (${BACKEND})`, () => {
  it('delivers every other lender’s leads while the hanging one has at most its share in flight', async () => {
    // 12 people consent to every API lender the sample form matches.
    for (let i = 0; i < 12; i++) {
      const { token } = await loginAs(ctx.app);
      const { auth } = await consentToApiOffers(ctx.app, token);
      expect(auth.statusCode, auth.body).toBe(200);
    }
    const all = await db().select().from(leads);
    const byPartner = new Map<number, number>();
    for (const l of all) byPartner.set(l.partnerId, (byPartner.get(l.partnerId) ?? 0) + 1);
    expect(byPartner.size, 'the sample form reaches at least two API lenders').toBeGreaterThanOrEqual(2);
    expect(all.length, 'more leads than one round of 20').toBeGreaterThan(20);
    // The lender of the oldest lead hangs; every other lender answers at once.
    const slowId = all.reduce((a, b) => (a.id < b.id ? a : b)).partnerId;
    for (const p of await db().select().from(partners)) {
      const target = p.id === slowId ? slow : healthy;
      await db()
        .update(partners)
        .set({ apiEndpoint: `${target.url}/${p.code}/leads`, dupCheckEndpoint: null })
        .where(eq(partners.id, p.id));
    }
    const slowLeads = all.filter((l) => l.partnerId === slowId);
    const healthyLeads = all.filter((l) => l.partnerId !== slowId);

    ctx.app.services.delivery.start(20);
    // Until every healthy lead is delivered (the test's timeout guards against a hang).
    for (;;) {
      const rows = await db()
        .select({ status: leads.status })
        .from(leads)
        .where(
          inArray(
            leads.id,
            healthyLeads.map((l) => l.id),
          ),
        );
      if (rows.every((r) => r.status === 'delivered')) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    // Every other lender's leads were delivered while the hanging lender had not answered once.
    const slowRows = await db()
      .select({ status: leads.status })
      .from(leads)
      .where(
        inArray(
          leads.id,
          slowLeads.map((l) => l.id),
        ),
      );
    expect(slowRows.every((r) => r.status === 'pending')).toBe(true);
    expect(healthy.accepted.size).toBe(healthyLeads.length);
    // The hanging lender got its share of slots, no more.
    expect(slow.requests.length).toBeGreaterThan(0);
    expect(slow.requests.length).toBeLessThanOrEqual(PER_PARTNER);
  });
});
