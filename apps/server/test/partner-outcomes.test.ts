/**
 * Issue 47.6: lender outcomes seen by people. The console's 机构反馈 of one lender — its delivered leads by
 * outcome, amounts, latency from delivery to its reports, its latest reports — the lead's outcome and history in
 * the console's lead detail, and each lender's outcome in the person's application record. The lender reports
 * through the sandbox lender, which calls the signed outcomes API exactly as a lender would.
 */
import type { AdminLeadDetail, AdminLeadList, AdminUserDetail } from '@lm/shared/schemas/admin-leads';
import type { PartnerOutcomesData } from '@lm/shared/schemas/partner-outcomes';
import type { ApplicationList } from '@lm/shared/schemas/privacy';
import { addDays, shanghaiDate } from '@lm/shared/time';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { leads, partners } from '../src/db/schema.ts';
import { consentToApiOffers } from './fixtures.ts';
import { BACKEND, body, loginAs, newPhone, staffLogin, useTestApp } from './helpers.ts';
import { deliverAll, pointLendersAt, quickDeliveryEnv, useLocalPartner } from './lenders.ts';

const partner = useLocalPartner();
const ctx = useTestApp(() => ({ env: { ...quickDeliveryEnv(partner.url, 3), PARTNER_SANDBOX: 'on' } }));
let app: FastifyInstance;
const tokens: Record<'admin' | 'operator' | 'viewer' | 'channel_partner', string> = {
  admin: '',
  operator: '',
  viewer: '',
  channel_partner: '',
};

interface Person {
  token: string;
  uid: number;
  /** This person's lead at the lender under test. */
  lead: { id: number; key: string };
}
let partnerId: number;
let partnerCode: string;
let people: Person[];

const HOUR = 3600;

/** People who consented to the API lenders; their leads delivered (to a local lender). */
async function consentingPeople(n: number) {
  const out: { token: string; uid: number }[] = [];
  for (let i = 0; i < n; i++) {
    const { token, uid } = await loginAs(app, newPhone(), { adChannelCode: 'demo' });
    const { auth } = await consentToApiOffers(app, token);
    expect(auth.statusCode, auth.body).toBe(200);
    out.push({ token, uid });
  }
  const mine = await app.database.db
    .select({ id: leads.id })
    .from(leads)
    .where(
      inArray(
        leads.userId,
        out.map((p) => p.uid),
      ),
    );
  await deliverAll(
    app,
    mine.map((l) => l.id),
  );
  return out;
}

const sandboxOutcome = async (payload: object) => {
  const res = await app.inject({
    method: 'POST',
    url: `/api/dev/partner-sandbox/${partnerCode}/outcomes`,
    payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res;
};

const report = (token: string, query = '', id: number | string = partnerId) =>
  app.inject({ url: `/api/admin/partners/${id}/outcomes${query}`, headers: { accesstoken: token } });

/** Moves a lead's delivery `seconds` into the past (the lender's latency is measured from it). */
async function deliveredAgo(leadId: number, seconds: number) {
  await app.database.db
    .update(leads)
    .set({ deliveredAt: new Date(Date.now() - seconds * 1000) })
    .where(eq(leads.id, leadId));
}

beforeAll(async () => {
  app = ctx.app;
  await app.listen({ port: 0, host: '127.0.0.1' });
  await pointLendersAt(app, partner.url);
  for (const role of Object.keys(tokens) as (keyof typeof tokens)[])
    tokens[role] = (
      await staffLogin(app, role, role === 'channel_partner' ? { channelCodes: ['demo'] } : {})
    ).token;

  const persons = await consentingPeople(4);
  // The lender every one of them was sent a lead to (the same form matches the same lenders).
  const first = await app.database.db
    .select({ partnerId: leads.partnerId, code: partners.code })
    .from(leads)
    .innerJoin(partners, eq(partners.id, leads.partnerId))
    .where(and(eq(leads.userId, persons[0]!.uid), eq(leads.status, 'delivered')));
  expect(first.length).toBeGreaterThan(0);
  partnerId = first[0]!.partnerId;
  partnerCode = first[0]!.code;
  people = [];
  for (const p of persons) {
    const [lead] = await app.database.db
      .select({ id: leads.id, key: leads.idempotencyKey, status: leads.status })
      .from(leads)
      .where(and(eq(leads.userId, p.uid), eq(leads.partnerId, partnerId)));
    expect(lead?.status).toBe('delivered');
    people.push({ ...p, lead: { id: lead!.id, key: lead!.key } });
  }
  const [a, b, c, d] = people as [Person, Person, Person, Person];

  // a: received, approved, funded twice (two transactions), then a late approval — delivered 2 hours ago.
  await deliveredAgo(a.lead.id, 2 * HOUR);
  await sandboxOutcome({ leadId: a.lead.key, status: 'received' });
  await sandboxOutcome({ leadId: a.lead.key, status: 'approved', limitFen: 2_000_000, rateBps: 1800 });
  await sandboxOutcome({ leadId: a.lead.key, status: 'funded', amountFen: 1_500_000, termMonths: 12 });
  await sandboxOutcome({ leadId: a.lead.key, status: 'funded', amountFen: 1_500_000, termMonths: 12 });
  await sandboxOutcome({ leadId: a.lead.key, status: 'approved', limitFen: 2_500_000 });
  // b: declined — delivered 1 hour ago.
  await deliveredAgo(b.lead.id, HOUR);
  await sandboxOutcome({ leadId: b.lead.key, status: 'declined', reason: '负债过高' });
  // c: approved — delivered 4 hours ago.
  await deliveredAgo(c.lead.id, 4 * HOUR);
  await sandboxOutcome({ leadId: c.lead.key, status: 'approved', limitFen: 800_000 });
  // d: nothing reported, and delivered 40 days ago (outside the default 30 days).
  await deliveredAgo(d.lead.id, 40 * 86_400);
});

/** Within a few seconds of `expected` (the test's own calls take time). */
const near = (expected: number) => expect.toSatisfy((v: number) => Math.abs(v - expected) <= 30);

describe(`lender outcomes seen by people (issue 47.6) (${BACKEND})`, () => {
  it('机构反馈: the last 30 days’ delivered leads by outcome, amounts, latency and the latest reports', async () => {
    const res = await report(tokens.viewer);
    expect(res.statusCode, res.body).toBe(200);
    const data = body<PartnerOutcomesData>(res).data;
    const today = shanghaiDate();
    expect(data).toMatchObject({ partnerId, from: addDays(today, -29), to: today, delivered: 3 });
    expect(Object.fromEntries(data.counts.map((c) => [c.key, [c.label, c.count]]))).toEqual({
      pending: ['申请中', 0],
      received: ['申请中', 0],
      duplicate: ['未通过', 0],
      approved: ['已授信', 1],
      declined: ['未通过', 1],
      funded: ['已放款', 1],
    });
    // a's latest approval (the late one) and c's; a's latest funding.
    expect(data.approvedFen).toBe(2_500_000 + 800_000);
    expect(data.fundedFen).toBe(1_500_000);

    // First reports after 1, 2 and 4 hours: median 2 hours, p90 at rank 1.8 → 2 h + 0.8 × 2 h.
    expect(data.latency.firstOutcome).toEqual({
      count: 3,
      medianSeconds: near(2 * HOUR),
      p90Seconds: near(2 * HOUR + 0.8 * 2 * HOUR),
    });
    // Approvals of a (2 h) and c (4 h): median 3 h; funding of a only.
    expect(data.latency.approved).toEqual({
      count: 2,
      medianSeconds: near(3 * HOUR),
      p90Seconds: near(2 * HOUR + 0.9 * 2 * HOUR),
    });
    expect(data.latency.funded).toEqual({
      count: 1,
      medianSeconds: near(2 * HOUR),
      p90Seconds: near(2 * HOUR),
    });

    // The latest reports, newest first: c's approval, b's decline, then a's five.
    const [a, b, c] = people as [Person, Person, Person];
    expect(data.latest.map((o) => [o.leadId, o.status, o.label, o.applied, o.repeated, o.late])).toEqual([
      [c.lead.id, 'approved', '已授信', true, false, false],
      [b.lead.id, 'declined', '未通过', true, false, false],
      [a.lead.id, 'approved', '已授信', false, true, false],
      [a.lead.id, 'funded', '已放款', true, true, false],
      [a.lead.id, 'funded', '已放款', true, false, false],
      [a.lead.id, 'approved', '已授信', true, false, false],
      [a.lead.id, 'received', '申请中', true, false, false],
    ]);
    expect(data.latest[1]).toMatchObject({ reason: '负债过高', leadKeyShort: b.lead.key.slice(0, 8) });
    expect(data.latest[4]).toMatchObject({ amountFen: 1_500_000, termMonths: 12, limitFen: null });
    expect(data.latest[5]).toMatchObject({ limitFen: 2_000_000, rateBps: 1800 });
    // The lead's key is answered short, never whole.
    expect(res.body).not.toContain(a.lead.key);
  });

  it('a late report is marked late; a range that reaches back counts the older delivery; a range without any is empty', async () => {
    const [, b] = people as [Person, Person];
    // Declined, then received: recorded, moves nothing.
    await sandboxOutcome({ leadId: b.lead.key, status: 'received' });
    let data = body<PartnerOutcomesData>(await report(tokens.operator)).data;
    expect(data.latest[0]).toMatchObject({
      leadId: b.lead.id,
      status: 'received',
      applied: false,
      repeated: false,
      late: true,
    });

    const today = shanghaiDate();
    data = body<PartnerOutcomesData>(await report(tokens.admin, `?from=${addDays(today, -45)}`)).data;
    expect(data.delivered).toBe(4);
    expect(data.counts.find((c) => c.key === 'pending')!.count).toBe(1);
    // d reported nothing: no latency from it.
    expect(data.latency.firstOutcome.count).toBe(3);

    const old = addDays(today, -80);
    data = body<PartnerOutcomesData>(await report(tokens.admin, `?from=${old}&to=${addDays(old, 5)}`)).data;
    expect(data).toMatchObject({ delivered: 0, approvedFen: 0, fundedFen: 0, latest: [] });
    expect(data.counts.every((c) => c.count === 0)).toBe(true);
    expect(data.latency.firstOutcome).toEqual({ count: 0, medianSeconds: null, p90Seconds: null });
  });

  it('refuses a channel partner, an unknown lender, bad dates and nobody, in words', async () => {
    let res = await report(tokens.channel_partner);
    expect(res.statusCode).toBe(403);
    expect(body(res).data).toBeNull();
    res = await app.inject({ url: `/api/admin/partners/${partnerId}/outcomes` });
    expect(res.statusCode).toBe(401);

    res = await report(tokens.viewer, '', 999_999);
    expect(res.statusCode).toBe(404);
    expect(body(res).msg).toBe('机构不存在');
    res = await report(tokens.viewer, '', 'abc');
    expect(res.statusCode).toBe(400);

    const today = shanghaiDate();
    const cases: [string, RegExp][] = [
      ['?from=2026-02-30', /日期不存在/],
      ['?from=yesterday', /日期格式应为 YYYY-MM-DD/],
      [`?from=${today}&to=${addDays(today, -1)}`, /结束日期不能早于开始日期/],
      [`?from=${addDays(today, -100)}&to=${today}`, /日期范围最多 92 天/],
      [`?from=${addDays(today, 1)}`, /开始日期不能晚于今天/],
      ['?partner=1', /./],
    ];
    for (const [query, msg] of cases) {
      res = await report(tokens.viewer, query);
      expect(res.statusCode, `${query}: ${res.body}`).toBe(400);
      expect(body(res).msg).toMatch(msg);
    }
  });

  it('the console’s lead shows its outcome and the lender’s reports; lists and the person carry the outcome', async () => {
    const [a, b, , d] = people as [Person, Person, Person, Person];
    let res = await app.inject({
      url: `/api/admin/leads/${a.lead.id}`,
      headers: { accesstoken: tokens.viewer },
    });
    expect(res.statusCode, res.body).toBe(200);
    const lead = body<AdminLeadDetail>(res).data;
    expect(lead.outcome).toBe('funded');
    expect(lead.outcomeList.map((o) => [o.status, o.applied, o.limitFen, o.amountFen])).toEqual([
      ['received', true, null, null],
      ['approved', true, 2_000_000, null],
      ['funded', true, null, 1_500_000],
      ['funded', true, null, 1_500_000],
      ['approved', false, 2_500_000, null],
    ]);
    expect(lead.outcomeList[0]!.receivedAt).toMatch(/Z$/);

    res = await app.inject({
      url: `/api/admin/leads?partnerId=${partnerId}&pageSize=50`,
      headers: { accesstoken: tokens.viewer },
    });
    const list = body<AdminLeadList>(res).data.list;
    expect(list.find((l) => l.id === b.lead.id)!.outcome).toBe('declined');
    expect(list.find((l) => l.id === d.lead.id)!.outcome).toBeNull();

    res = await app.inject({ url: `/api/admin/users/${a.uid}`, headers: { accesstoken: tokens.viewer } });
    const person = body<AdminUserDetail>(res).data;
    expect(person.leads.find((l) => l.id === a.lead.id)!.outcome).toBe('funded');
  });

  it('the person’s application record shows each lender’s outcome as reported, only for lenders it went to', async () => {
    const [a, b, c, d] = people as [Person, Person, Person, Person];
    const offersOf = async (token: string) => {
      const res = await app.inject({ url: '/api/user/applications', headers: { accesstoken: token } });
      expect(res.statusCode, res.body).toBe(200);
      return body<ApplicationList>(res).data.list.flatMap((r) => r.offers);
    };
    const aOffers = await offersOf(a.token);
    const [aLead] = await app.database.db
      .select({ productId: leads.productId })
      .from(leads)
      .where(eq(leads.id, a.lead.id));
    const aAtLender = aOffers.find((o) => o.productId === aLead!.productId)!;
    expect(aAtLender.outcome).toMatchObject({ status: 'funded', limitFen: 2_500_000, amountFen: 1_500_000 });
    expect(aAtLender.outcome!.reportedAt).toMatch(/Z$/);
    // Other lenders got a's data and said nothing yet: 申请中. Offers never consented to: nothing.
    for (const o of aOffers.filter((x) => x.productId !== aLead!.productId)) {
      if (o.delivery?.status === 'delivered')
        expect(o.outcome).toEqual({ status: 'pending', limitFen: null, amountFen: null, reportedAt: null });
      if (!o.consent) expect(o.outcome).toBeNull();
    }
    expect(aOffers.some((o) => o.outcome?.status === 'pending')).toBe(true);

    const outcomeAt = async (p: Person) => {
      const [row] = await app.database.db
        .select({ productId: leads.productId })
        .from(leads)
        .where(eq(leads.id, p.lead.id));
      return (await offersOf(p.token)).find((o) => o.productId === row!.productId)!.outcome;
    };
    expect(await outcomeAt(b)).toMatchObject({ status: 'declined', limitFen: null, amountFen: null });
    expect(await outcomeAt(c)).toMatchObject({ status: 'approved', limitFen: 800_000, amountFen: null });
    expect(await outcomeAt(d)).toEqual({
      status: 'pending',
      limitFen: null,
      amountFen: null,
      reportedAt: null,
    });
  });
});
