/**
 * Issue 47.4–47.5: a lender reports what became of a lead through the signed outcomes API (the sandbox lender
 * through `POST /api/dev/partner-sandbox/{code}/outcomes`, exactly as a lender would); repeated and late calls
 * are safe, impossible ones refused in words; an approval and a funded loan reach the ad platform of the
 * person's click once each, with the amount.
 */
import type { AdSandboxEventData } from '@lm/shared/schemas/ad-sandbox';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { adClicks, adReports, leadOutcomes, leads, partners } from '../src/db/schema.ts';
import { consentToApiOffers } from './fixtures.ts';
import { BACKEND, body, devOutbox, loginAs, newPhone, sendCancellationCode, useTestApp } from './helpers.ts';
import { signedCallback } from './lenders.ts';

const ctx = useTestApp({ env: { PARTNER_SANDBOX: 'on' } });
let app: FastifyInstance;
beforeAll(async () => {
  app = ctx.app;
  await app.listen({ port: 0, host: '127.0.0.1' });
});

async function personWithLeads(
  clickid: string,
  via: { channel: string; trackReport: object } = {
    channel: 'demo',
    trackReport: { platform: 'oceanengine', clickid },
  },
) {
  const { token, uid, phone } = await loginAs(
    app,
    newPhone(),
    { adChannelCode: via.channel },
    { track_report: JSON.stringify(via.trackReport) },
  );
  const { auth } = await consentToApiOffers(app, token);
  expect(auth.statusCode, auth.body).toBe(200);
  const rows = await app.database.db
    .select({ key: leads.idempotencyKey, partnerCode: partners.code })
    .from(leads)
    .innerJoin(partners, eq(partners.id, leads.partnerId))
    .where(eq(leads.userId, uid));
  expect(rows.length).toBeGreaterThan(0);
  return { uid, token, phone, leads: rows };
}

const STEP_ORDER = ['active_register', 'form', 'loan_credit', 'loan'];

const sandboxOutcome = (code: string, payload: object) =>
  app.inject({ method: 'POST', url: `/api/dev/partner-sandbox/${code}/outcomes`, payload });

async function sandboxEvents(platform: string, clickid: string): Promise<AdSandboxEventData[]> {
  return body<AdSandboxEventData[]>(
    await app.inject({ url: `/api/dev/ad-sandbox/${platform}/events?clickid=${clickid}` }),
  ).data;
}
const oceanEngine = (clickid: string) => sandboxEvents('oceanengine', clickid);

describe(`lender outcomes (issue 47.4–47.5) (${BACKEND})`, () => {
  it('approved, then funded twice: 授信 and 放款 reach Ocean Engine once each, with the amounts', async () => {
    const clickid = `OUT${Date.now().toString(36)}`;
    const { leads: mine } = await personWithLeads(clickid);
    const { key, partnerCode } = mine[0]!;
    let res = await sandboxOutcome(partnerCode, {
      leadId: key,
      status: 'approved',
      limitFen: 2_000_000,
      rateBps: 1800,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(body(res).data).toMatchObject({ leadId: key, outcome: 'approved', repeated: false });
    for (let i = 0; i < 2; i++) {
      res = await sandboxOutcome(partnerCode, {
        leadId: key,
        status: 'funded',
        amountFen: 1_234_567,
        termMonths: 12,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(body(res).data).toMatchObject({ outcome: 'funded' });
    }
    // A late approval after the loan is recorded and moves nothing.
    res = await sandboxOutcome(partnerCode, { leadId: key, status: 'approved', limitFen: 3_000_000 });
    expect(body(res).data).toMatchObject({ outcome: 'funded', repeated: false });
    await app.services.delivery.drain();

    // One round sends a person's due reports side by side: the platform may get them in any order.
    const events = (await oceanEngine(clickid)).sort(
      (a, b) => STEP_ORDER.indexOf(a.eventType) - STEP_ORDER.indexOf(b.eventType),
    );
    expect(events.map((e) => [e.eventType, e.valueFen])).toEqual([
      ['active_register', null],
      ['form', null],
      ['loan_credit', 2_000_000],
      ['loan', 1_234_567],
    ]);
    expect(events[3]!.request).toMatchObject({ properties: { pay_amount: 12345.67 } });
    const [lead] = await app.database.db.select().from(leads).where(eq(leads.idempotencyKey, key));
    expect(lead!.outcome).toBe('funded');
    const recorded = await app.database.db
      .select()
      .from(leadOutcomes)
      .where(eq(leadOutcomes.leadId, lead!.id))
      .orderBy(leadOutcomes.id);
    expect(recorded.map((r) => [r.status, r.applied])).toEqual([
      ['approved', true],
      ['funded', true],
      ['funded', true],
      ['approved', false],
    ]);

    // A funded lead cannot be declined.
    res = await sandboxOutcome(partnerCode, { leadId: key, status: 'declined', reason: '资质不符' });
    expect(res.statusCode).toBe(409);
    expect(body(res)).toMatchObject({ code: 1105, msg: expect.stringContaining('已放款') });
  });

  it('the same transaction id again is answered as the first time; bad input is refused in words', async () => {
    const { leads: mine } = await personWithLeads(`TX${Date.now().toString(36)}`);
    const { key, partnerCode } = mine[0]!;
    const [partner] = await app.database.db.select().from(partners).where(eq(partners.code, partnerCode));
    const secret = (await app.services.partnerCallbacks.signingPartner(partnerCode))!.secret;
    const signedCall = (payload: object, opts: { secret?: string; code?: string } = {}) =>
      signedCallback(app, opts.code ?? partnerCode, opts.secret ?? secret, payload, '/api/partner/outcomes');
    const declined = {
      version: 1,
      transactionId: 'T-1',
      leadId: key,
      status: 'declined',
      reason: '负债过高',
    };
    let res = await signedCall(declined);
    expect(res.statusCode, res.body).toBe(200);
    expect(body(res).data).toEqual({
      leadId: key,
      transactionId: 'T-1',
      outcome: 'declined',
      repeated: false,
    });
    res = await signedCall(declined);
    expect(body(res).data).toMatchObject({ outcome: 'declined', repeated: true });
    // Declined, then funded: refused.
    res = await signedCall({ transactionId: 'T-2', leadId: key, status: 'funded', amountFen: 100 });
    expect(res.statusCode).toBe(409);

    // Unsigned, forged, another lender's lead, an unknown lead, an approval without its limit.
    res = await app.inject({ method: 'POST', url: '/api/partner/outcomes', payload: declined });
    expect(res.statusCode).toBe(401);
    res = await signedCall({ ...declined, transactionId: 'T-3' }, { secret: 'not-the-secret' });
    expect(res.statusCode).toBe(401);
    expect(body(res).code).toBe(1103);
    const other = await app.database.db.select().from(partners);
    const someoneElse = other.find((p) => p.id !== partner!.id && p.signingSecretEnc)!;
    const otherSecret = (await app.services.partnerCallbacks.signingPartner(someoneElse.code))!.secret;
    res = await signedCall(
      { ...declined, transactionId: 'T-4' },
      { secret: otherSecret, code: someoneElse.code },
    );
    expect(res.statusCode).toBe(404);
    expect(body(res).msg).toContain('线索不存在');
    res = await signedCall({ transactionId: 'T-5', leadId: key, status: 'approved' });
    expect(res.statusCode).toBe(400);
    expect(body(res).msg).toContain('授信结果须包含授信额度 limitFen');
    res = await sandboxOutcome(partnerCode, { leadId: 'no-such-lead', status: 'received' });
    expect(res.statusCode).toBe(404);
  });

  it('a loan funded after the platform window is recorded as late and never sent (issue 47.5)', async () => {
    const clickid = `LATE${Date.now().toString(36)}`;
    const { uid, leads: mine } = await personWithLeads(clickid);
    const { key, partnerCode } = mine[0]!;
    // Ocean Engine takes conversions up to 7 days after the click: this click was 8 days ago.
    const eightDaysAgo = new Date(Date.now() - 8 * 86_400_000);
    await app.database.db.update(adClicks).set({ firstSeenAt: eightDaysAgo }).where(eq(adClicks.userId, uid));
    let res = await sandboxOutcome(partnerCode, { leadId: key, status: 'approved', limitFen: 500_000 });
    expect(res.statusCode, res.body).toBe(200);
    res = await sandboxOutcome(partnerCode, { leadId: key, status: 'funded', amountFen: 300_000 });
    expect(body(res).data).toMatchObject({ outcome: 'funded' });
    await app.services.delivery.drain();
    const events = await oceanEngine(clickid);
    expect(events.map((e) => e.eventType).sort()).toEqual(['active_register', 'form']);
    const reports = await app.database.db
      .select({ step: adReports.step, status: adReports.status, attempts: adReports.attempts })
      .from(adReports)
      .where(eq(adReports.userId, uid));
    expect(
      reports
        .filter((r) => r.step === 'credit' || r.step === 'loan')
        .sort((a, b) => a.step.localeCompare(b.step)),
    ).toEqual([
      { step: 'credit', status: 'late', attempts: 0 },
      { step: 'loan', status: 'late', attempts: 0 },
    ]);
  });

  it('a duplicate lead sends the negative signal where the platform takes one, once (issue 47.3)', async () => {
    const clickid = `DUP${Date.now().toString(36)}`;
    const ocean = await personWithLeads(clickid);
    const bdVid = `BDDUP${Date.now().toString(36)}`;
    const baidu = await personWithLeads(bdVid, {
      channel: 'demo-location',
      trackReport: { platform: 'baidu', bd_vid: bdVid },
    });
    await app.services.delivery.drain();
    for (const person of [ocean, baidu]) {
      const { key, partnerCode } = person.leads[0]!;
      for (const transactionId of ['D-1', 'D-2']) {
        const res = await sandboxOutcome(partnerCode, { leadId: key, status: 'duplicate', transactionId });
        expect(res.statusCode, res.body).toBe(200);
      }
    }
    await app.services.delivery.drain();
    expect((await oceanEngine(clickid)).map((e) => e.eventType).sort()).toEqual([
      'active_register',
      'failed_lead',
      'form',
    ]);
    // Baidu: the lead was reported as newType 3 (表单提交); its correction goes to uploadInvalidConvertData.
    const bd = await sandboxEvents('baidu', bdVid);
    expect(bd.map((e) => e.eventType)).toEqual(['3', 'invalid:3']);
    expect(JSON.stringify(bd)).not.toContain('demo-baidu-ocpc-token');
  });

  it('a cancelled account is reported to no one: pending reports dropped, later outcomes not sent (47.7)', async () => {
    const clickid = `CXL${Date.now().toString(36)}`;
    const person = await personWithLeads(clickid);
    const { key, partnerCode } = person.leads[0]!;
    const pending = await app.database.db.select().from(adReports).where(eq(adReports.userId, person.uid));
    expect(pending.map((r) => r.status)).toContain('pending');
    expect(body(await sendCancellationCode(app, person.token)).code).toBe(200);
    const code = (await devOutbox(app, person.phone))[0]!.code;
    const done = await app.inject({
      method: 'POST',
      url: '/api/cancellation',
      payload: { code },
      headers: { accesstoken: person.token },
    });
    expect(body(done).code, done.body).toBe(200);
    // The lender still reports what became of the lead: recorded, reported to no platform.
    const res = await sandboxOutcome(partnerCode, { leadId: key, status: 'approved', limitFen: 800_000 });
    expect(res.statusCode, res.body).toBe(200);
    await app.services.delivery.drain();
    expect(await oceanEngine(clickid)).toEqual([]);
    expect(await app.database.db.select().from(adReports).where(eq(adReports.userId, person.uid))).toEqual(
      [],
    );
    const clicks = await app.database.db.select().from(adClicks).where(eq(adClicks.clickId, clickid));
    expect(clicks.map((c) => [c.userId, c.attributedAt])).toEqual([[null, null]]);
  });
});
