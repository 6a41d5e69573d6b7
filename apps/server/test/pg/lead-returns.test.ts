import type { AddressInfo } from 'node:net';
import type { LenderReturnData } from '@lm/shared/schemas/returns';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadReturns, leads, ledgerEntries, partners } from '../../src/db/schema.ts';
import { allowedReturns } from '../../src/modules/returns/rules.ts';
import { consentToApiOffers } from '../fixtures.ts';
import { BACKEND, body, createTestApp, loginAs, newPhone, PG_URL, type TestContext } from '../helpers.ts';
import { pointLendersAt } from '../lenders.ts';

/**
 * PostgreSQL only (issue 48.4): returns decided at the same moment. Ten returns of one lead → exactly one wins
 * (and the lead is reversed once); many returns of different leads of one lender at once never pass its
 * monthly rate.
 */
let ctx: TestContext;
beforeAll(async () => {
  if (!PG_URL) throw new Error('TEST_DATABASE_URL is required for the PostgreSQL-only tests');
  ctx = await createTestApp({
    env: { DATABASE_POOL_SIZE: '20', PARTNER_SANDBOX: 'on', DELIVERY_WORKER: 'off' },
  });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = ctx.app.server.address() as AddressInfo;
  await pointLendersAt(ctx.app, `http://127.0.0.1:${port}/api/dev/partner-sandbox`);
  await ctx.app.database.db.update(partners).set({ maxReturnRateBps: 10_000 });
});
afterAll(async () => ctx?.close());

/** `n` people's leads, delivered; answers each person's leads. */
async function deliveredLeads(n: number) {
  const app = ctx.app;
  const uids: number[] = [];
  for (let i = 0; i < n; i++) {
    const { token, uid } = await loginAs(app, newPhone(), { adChannelCode: 'demo' });
    const { auth } = await consentToApiOffers(app, token);
    expect(auth.statusCode, auth.body).toBe(200);
    uids.push(uid);
  }
  await app.services.delivery.drain();
  return app.database.db
    .select({ id: leads.id, key: leads.idempotencyKey, partnerId: leads.partnerId, code: partners.code })
    .from(leads)
    .innerJoin(partners, eq(partners.id, leads.partnerId))
    .where(and(inArray(leads.userId, uids), eq(leads.status, 'delivered')));
}

const sandboxReturn = (code: string, payload: object) =>
  ctx.app.inject({ method: 'POST', url: `/api/dev/partner-sandbox/${code}/returns`, payload });

describe(`lead returns under concurrency (${BACKEND})`, () => {
  it('10 returns of one lead at once: one accepted, the others refused; reversed once', async () => {
    const [lead] = await deliveredLeads(1);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        sandboxReturn(lead!.code, { leadId: lead!.key, reason: i % 2 ? 'duplicate' : 'fraud' }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, ...Array(9).fill(409)]);
    for (const a of answers.filter((x) => x.statusCode === 409))
      expect(body<{ reason: string }>(a).data.reason).toBe('already_returned');
    const rows = await ctx.app.database.db.select().from(leadReturns).where(eq(leadReturns.leadId, lead!.id));
    expect(rows).toHaveLength(1);
    const reversals = await ctx.app.database.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.leadId, lead!.id), eq(ledgerEntries.kind, 'return')));
    expect(reversals).toHaveLength(1);
  });

  it('returns of many leads of one lender at once never pass its monthly rate', async () => {
    const all = await deliveredLeads(12);
    // The lender with the most of these leads.
    const byPartner = new Map<number, typeof all>();
    for (const l of all) byPartner.set(l.partnerId, [...(byPartner.get(l.partnerId) ?? []), l]);
    const [partnerId, mine] = [...byPartner].sort((a, b) => b[1].length - a[1].length)[0]!;
    expect(mine.length).toBeGreaterThanOrEqual(10);
    const db = ctx.app.database.db;
    await db.update(partners).set({ maxReturnRateBps: 2500 }).where(eq(partners.id, partnerId));
    const answers = await Promise.all(
      mine.map((l) => sandboxReturn(l.code, { leadId: l.key, reason: 'invalid_phone' })),
    );
    const ok = answers.filter((a) => a.statusCode === 200);
    const refused = answers.filter((a) => a.statusCode === 409);
    expect(ok.length + refused.length).toBe(mine.length);
    for (const a of refused) expect(body<{ reason: string }>(a).data.reason).toBe('rate_exceeded');
    // What the lender was allowed this month, counting every lead delivered to it (this file's first test too).
    const delivered = (await db.select().from(leads).where(eq(leads.partnerId, partnerId))).filter(
      (l) => l.deliveredAt,
    ).length;
    const returned = await db.select().from(leadReturns).where(eq(leadReturns.partnerId, partnerId));
    expect(returned.length).toBeLessThanOrEqual(allowedReturns(delivered, 2500));
    expect(returned.length).toBe(allowedReturns(delivered, 2500));
    expect(ok.map((a) => body<LenderReturnData>(a).data.status)).toEqual(ok.map(() => 'accepted'));
  });
});
