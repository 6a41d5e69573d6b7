/**
 * Issue 48.3: the ledger books what lenders owe for their leads — a delivered lead at its CPL, the first
 * approval at its CPA, each funding at its CPS share — at the price in force at the event, once each however
 * often the sweep runs (several at once included), the person's channel's revenue share beside it; entries are
 * never updated or deleted; an event of a closed month lands in the next open month.
 */

import type { AddressInfo } from 'node:net';
import { bpsOf, shanghaiMonthOf } from '@lm/shared/money';
import { addDays, shanghaiDate, shanghaiDayStart } from '@lm/shared/time';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { channelCosts, channels, leads, ledgerEntries, monthCloses, partners } from '../src/db/schema.ts';
import { LedgerPoster } from '../src/modules/ledger/poster.ts';
import { LedgerRepository } from '../src/modules/ledger/repository.ts';
import { nextMonth } from '../src/modules/ledger/rules.ts';
import { consentToApiOffers } from './fixtures.ts';
import { BACKEND, loginAs, newPhone, staffLogin, useTestApp } from './helpers.ts';
import { pointLendersAt, SECRETS, signedCallback } from './lenders.ts';

const ctx = useTestApp({ env: { PARTNER_SANDBOX: 'on', DELIVERY_WORKER: 'off' } });
let app: FastifyInstance;
let adminToken = '';
const db = () => app.database.db;
const today = shanghaiDate();

beforeAll(async () => {
  app = ctx.app;
  await app.listen({ port: 0, host: '127.0.0.1' });
  // The demo lenders take leads at the sandbox of this app (the port it listens on).
  const { port } = app.server.address() as AddressInfo;
  await pointLendersAt(app, `http://127.0.0.1:${port}/api/dev/partner-sandbox`);
  adminToken = (await staffLogin(app, 'admin')).token;
});

async function addPrice(productId: number, payload: object) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/admin/products/${productId}/prices`,
    headers: { accesstoken: adminToken },
    payload: { effectiveFrom: today, ...payload },
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** A person of `channel` who consents to every API offer; their leads once delivered. */
async function deliveredLeads(channel = 'demo') {
  const { token, uid } = await loginAs(app, newPhone(), { adChannelCode: channel });
  const { auth } = await consentToApiOffers(app, token);
  expect(auth.statusCode, auth.body).toBe(200);
  await app.services.delivery.drain();
  const rows = await db()
    .select({
      id: leads.id,
      key: leads.idempotencyKey,
      productId: leads.productId,
      partnerCode: partners.code,
      status: leads.status,
      deliveredAt: leads.deliveredAt,
    })
    .from(leads)
    .innerJoin(partners, eq(partners.id, leads.partnerId))
    .where(eq(leads.userId, uid))
    .orderBy(asc(leads.id));
  expect(rows.length).toBeGreaterThan(0);
  for (const r of rows) expect(r.status).toBe('delivered');
  return rows;
}

const entriesOf = (leadIds: number[]) =>
  db()
    .select()
    .from(ledgerEntries)
    .where(inArray(ledgerEntries.leadId, leadIds))
    .orderBy(asc(ledgerEntries.id));

const sandboxOutcome = (code: string, payload: object) =>
  app.inject({ method: 'POST', url: `/api/dev/partner-sandbox/${code}/outcomes`, payload });

describe(`ledger postings (issue 48.3) (${BACKEND})`, () => {
  let priced: Awaited<ReturnType<typeof deliveredLeads>>[number];
  let allLeads: Awaited<ReturnType<typeof deliveredLeads>>;

  it('a delivered lead is booked at its CPL, a lead without a price at 0 fen; both count on the statement', async () => {
    const first = await deliveredLeads();
    priced = first[0]!;
    await addPrice(priced.productId, { model: 'cpl', amountFen: 3500 });
    await addPrice(priced.productId, { model: 'cpa', amountFen: 20_000 });
    await addPrice(priced.productId, { model: 'cps', bps: 150 });
    // The price came after the first person's delivery: their entries are priced as of their delivery.
    allLeads = await deliveredLeads();
    priced = allLeads.find((l) => l.productId === priced.productId)!;
    expect(priced).toBeDefined();
    const rows = await entriesOf([...first, ...allLeads].map((l) => l.id));
    expect(rows.filter((r) => r.model === 'cpl')).toHaveLength(first.length + allLeads.length);
    for (const r of rows) {
      expect(r.kind).toBe('lead_revenue');
      expect(r.partyType).toBe('lender');
      expect(r.month).toBe(shanghaiMonthOf(r.eventAt));
      expect(r.channelCode).toBe('demo');
      expect(r.reference).toBe(`lead:${r.leadId}:cpl`);
    }
    const mine = rows.find((r) => r.leadId === priced.id)!;
    expect(mine).toMatchObject({
      amountFen: 3500,
      model: 'cpl',
      productId: priced.productId,
      partyCode: priced.partnerCode,
    });
    expect(mine.priceId).not.toBeNull();
    expect(mine.eventAt.getTime()).toBe(priced.deliveredAt!.getTime());
    // Before the price: its own delivery time decides, not when it was booked.
    const before = rows.find((r) => r.leadId === first.find((l) => l.productId === priced.productId)!.id)!;
    expect(before.eventAt.getTime()).toBeLessThanOrEqual(mine.eventAt.getTime());
    for (const r of rows.filter((r) => r.leadId !== priced.id && r.productId !== priced.productId))
      expect(r).toMatchObject({ amountFen: 0, priceId: null });
  });

  it('approved once, funded twice: one CPA entry and a CPS share of each funding, however often reported', async () => {
    let res = await sandboxOutcome(priced.partnerCode, {
      leadId: priced.key,
      status: 'approved',
      limitFen: 5_000_000,
    });
    expect(res.statusCode, res.body).toBe(200);
    res = await sandboxOutcome(priced.partnerCode, {
      leadId: priced.key,
      status: 'approved',
      limitFen: 5_000_000,
    });
    expect(res.statusCode, res.body).toBe(200);
    for (const amountFen of [1_234_567, 333]) {
      res = await sandboxOutcome(priced.partnerCode, {
        leadId: priced.key,
        status: 'funded',
        amountFen,
        termMonths: 12,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    await app.services.delivery.drain();
    await app.services.delivery.drain();
    const rows = await entriesOf([priced.id]);
    expect(rows.map((r) => [r.model, r.amountFen, r.basisFen])).toEqual([
      ['cpl', 3500, null],
      ['cpa', 20_000, null],
      ['cps', bpsOf(1_234_567, 150), 1_234_567],
      ['cps', bpsOf(333, 150), 333],
    ]);
    expect(bpsOf(333, 150)).toBe(5); // 4.995 → 5: rounded once, on the entry
  });

  it('a lender cannot date an outcome before the lead or after it told us', async () => {
    const mine = await deliveredLeads();
    const lead = mine.find((l) => l.productId === priced.productId)!;
    const outcome = (payload: object) =>
      signedCallback(
        app,
        lead.partnerCode,
        SECRETS.get(lead.partnerCode)!,
        { leadId: lead.key, ...payload },
        '/api/partner/outcomes',
      );
    const sent = new Date();
    let res = await outcome({
      transactionId: 'future-1',
      status: 'approved',
      limitFen: 1_000_000,
      occurredAt: '2099-01-01T00:00:00+08:00',
    });
    expect(res.statusCode, res.body).toBe(200);
    res = await outcome({
      transactionId: 'past-1',
      status: 'funded',
      amountFen: 100_000,
      termMonths: 6,
      occurredAt: '2000-01-01T00:00:00+08:00',
    });
    expect(res.statusCode, res.body).toBe(200);
    await app.services.delivery.drain();
    const rows = await entriesOf([lead.id]);
    const [created] = await db().select({ at: leads.createdAt }).from(leads).where(eq(leads.id, lead.id));
    const cpa = rows.find((r) => r.model === 'cpa')!;
    const cps = rows.find((r) => r.model === 'cps')!;
    // 2099 → when we received it; 2000 → when the lead was made (then the first approval is that funding).
    expect(cps.eventAt.getTime()).toBe(created!.at.getTime());
    expect(cpa.eventAt.getTime()).toBe(created!.at.getTime());
    expect(cpa.eventAt.getTime()).toBeLessThanOrEqual(Date.now());
    expect(cps.eventAt.getTime()).toBeLessThan(sent.getTime() + 60_000);
    for (const r of rows) expect(r.month).toBe(shanghaiMonthOf(new Date()));
  });

  it('a later price never rewrites a booked entry', async () => {
    await addPrice(priced.productId, { model: 'cpl', amountFen: 9999, effectiveFrom: addDays(today, 1) });
    await app.services.delivery.drain();
    const [cpl] = (await entriesOf([priced.id])).filter((r) => r.model === 'cpl');
    expect(cpl!.amountFen).toBe(3500);
  });

  it('entries are never updated or deleted: the database refuses', async () => {
    const [row] = await entriesOf([priced.id]);
    await expect(
      db().update(ledgerEntries).set({ amountFen: 1 }).where(eq(ledgerEntries.id, row!.id)),
    ).rejects.toThrow();
    await expect(db().delete(ledgerEntries).where(eq(ledgerEntries.id, row!.id))).rejects.toThrow();
    const [after] = await db().select().from(ledgerEntries).where(eq(ledgerEntries.id, row!.id));
    expect(after!.amountFen).toBe(row!.amountFen);
  });

  it('several sweeps at once book each event once', async () => {
    const more = [...(await deliveredLeadsUnswept()), ...(await deliveredLeadsUnswept())];
    const posters = Array.from(
      { length: 6 },
      () => new LedgerPoster({ repo: new LedgerRepository(db()), log: app.log, batch: 3 }),
    );
    for (let round = 0; round < 4; round++) await Promise.all(posters.map((p) => p.runOnce()));
    const rows = await entriesOf(more.map((l) => l.id));
    expect(
      rows
        .filter((r) => r.model === 'cpl')
        .map((r) => r.leadId)
        .sort(),
    ).toEqual(more.map((l) => l.id).sort());
  });

  it('the channel’s revenue share is booked beside the revenue, at the share in force', async () => {
    const [demo] = await db()
      .select({ id: channels.id })
      .from(channels)
      .where(eq(channels.adChannelCode, 'demo'));
    await db()
      .insert(channelCosts)
      .values({ channelId: demo!.id, model: 'rev_share', bps: 2000, effectiveFrom: shanghaiDayStart(today) });
    const mine = await deliveredLeads();
    const lead = mine.find((l) => l.productId === priced.productId)!;
    const rows = await entriesOf([lead.id]);
    expect(rows.map((r) => [r.kind, r.partyType, r.amountFen, r.reference])).toEqual([
      ['lead_revenue', 'lender', 3500, `lead:${lead.id}:cpl`],
      ['channel_cost', 'channel', 700, `rev_share:lead:${lead.id}:cpl`],
    ]);
    // A lead that earned nothing costs no share.
    const zero = await entriesOf(mine.filter((l) => l.productId !== priced.productId).map((l) => l.id));
    expect(zero.every((r) => r.kind === 'lead_revenue')).toBe(true);
  });

  it('an event of a closed month is booked in the next open month', async () => {
    const month = shanghaiMonthOf(new Date());
    expect(await app.services.ledger.close(month, null)).toBe(true);
    expect(await app.services.ledger.close(month, null)).toBe(false);
    try {
      const mine = await deliveredLeads();
      const rows = await entriesOf(mine.map((l) => l.id));
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows) {
        expect(shanghaiMonthOf(r.eventAt)).toBe(month);
        expect(r.month).toBe(nextMonth(month));
      }
    } finally {
      // Reopen for the other tests of this app (month_closes is not the append-only table).
      await db().delete(monthCloses).where(eq(monthCloses.month, month));
    }
  });

  /** Delivered leads whose sweep has not run: the worker delivers them with postings switched off. */
  async function deliveredLeadsUnswept() {
    const { token, uid } = await loginAs(app, newPhone(), { adChannelCode: 'demo' });
    const { auth } = await consentToApiOffers(app, token);
    expect(auth.statusCode, auth.body).toBe(200);
    // Deliver without booking: mark them delivered the way the worker does.
    await db().execute(
      sql`update leads set status = 'delivered', delivered_at = now() where user_id = ${uid} and status = 'pending'`,
    );
    return db()
      .select({ id: leads.id })
      .from(leads)
      .where(and(eq(leads.userId, uid), eq(leads.status, 'delivered')));
  }
});
