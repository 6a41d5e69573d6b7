/**
 * Issue 47.4: a lender that only answers a status query. Configured in the console (status query URL, polling,
 * interval), its leads delivered in the last 30 days without a final outcome are asked about by the delivery
 * worker's rounds, signed; each answer is recorded as an outcome with a deterministic transaction id, so the
 * lead becomes approved then funded and the ad platform hears of each once. A status URL that refuses or cannot
 * be reached is recorded on the lender and asked again at its next round, without harm.
 */
import type { AdSandboxEventData } from '@lm/shared/schemas/ad-sandbox';
import type { PartnerItem } from '@lm/shared/schemas/admin-catalog';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { leadOutcomes, leads, partners } from '../src/db/schema.ts';
import { consentToApiOffers } from './fixtures.ts';
import { BACKEND, body, loginAs, newIp, newPhone, staffLogin, useTestApp } from './helpers.ts';

/** Nothing listens on port 1: the allow-listed origin of a lender that cannot be reached. */
const UNREACHABLE = 'http://127.0.0.1:1';
const ctx = useTestApp({ env: { PARTNER_SANDBOX: 'on', PARTNER_TEST_ORIGINS: UNREACHABLE } });
let app: FastifyInstance;
let port = 0;
let admin = '';

beforeAll(async () => {
  app = ctx.app;
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as { port: number }).port;
  for (const p of await app.database.db.select({ code: partners.code }).from(partners))
    await app.database.db
      .update(partners)
      .set({ apiEndpoint: `${sandbox(p.code)}/leads`, dupCheckEndpoint: null })
      .where(eq(partners.code, p.code));
  app.services.matching.invalidateCatalog();
  admin = (await staffLogin(app, 'admin')).token;
});

const sandbox = (code: string) => `http://127.0.0.1:${port}/api/dev/partner-sandbox/${code}`;

/** A person from an Ocean Engine click, whose leads the sandbox lenders received. */
async function personWithDeliveredLeads(clickid: string) {
  const { token, uid } = await loginAs(
    app,
    newPhone(),
    { adChannelCode: 'demo' },
    { track_report: JSON.stringify({ platform: 'oceanengine', clickid }) },
  );
  const { auth } = await consentToApiOffers(app, token);
  expect(auth.statusCode, auth.body).toBe(200);
  await app.services.delivery.drain();
  const rows = await app.database.db
    .select({
      id: leads.id,
      key: leads.idempotencyKey,
      status: leads.status,
      partnerId: leads.partnerId,
      code: partners.code,
    })
    .from(leads)
    .innerJoin(partners, eq(partners.id, leads.partnerId))
    .where(eq(leads.userId, uid));
  expect(rows.length).toBeGreaterThanOrEqual(2);
  expect(rows.every((r) => r.status === 'delivered')).toBe(true);
  return rows;
}

/** Sets a lender's polling through the console's own call (the rest of the lender as it is). */
async function setPolling(
  partnerId: number,
  polling: { statusQueryEndpoint: string | null; pollEnabled: boolean },
) {
  const got = await app.inject({ url: `/api/admin/partners/${partnerId}`, headers: { accesstoken: admin } });
  const p = body<PartnerItem>(got).data;
  return app.inject({
    method: 'PUT',
    url: `/api/admin/partners/${partnerId}`,
    headers: { accesstoken: admin },
    remoteAddress: newIp(),
    payload: {
      legalName: p.legalName,
      licenceNumber: p.licenceNumber,
      contactName: p.contactName,
      apiEndpoint: p.apiEndpoint,
      dupCheckEndpoint: p.dupCheckEndpoint,
      allowedHosts: p.allowedHosts,
      deliveryModes: p.deliveryModes,
      status: p.status,
      pollIntervalMinutes: 5,
      ...polling,
    },
  });
}

/** What the sandbox lender's status query will say about a lead (it does not call us). */
async function sandboxSays(code: string, payload: object) {
  const res = await app.inject({ method: 'POST', url: `/api/dev/partner-sandbox/${code}/statuses`, payload });
  expect(res.statusCode, res.body).toBe(200);
}

/** The lender's interval has passed: it is due at the next round. */
async function intervalPasses(partnerId: number) {
  await app.database.db
    .update(partners)
    .set({ pollNextAt: new Date(Date.now() - 1000) })
    .where(eq(partners.id, partnerId));
}

const outcomesOf = (leadId: number) =>
  app.database.db
    .select({
      transactionId: leadOutcomes.transactionId,
      status: leadOutcomes.status,
      applied: leadOutcomes.applied,
    })
    .from(leadOutcomes)
    .where(eq(leadOutcomes.leadId, leadId))
    .orderBy(leadOutcomes.id);

const leadOutcome = async (leadId: number) =>
  (await app.database.db.select({ outcome: leads.outcome }).from(leads).where(eq(leads.id, leadId)))[0]!
    .outcome;

const lenderRow = async (partnerId: number) =>
  (await app.database.db.select().from(partners).where(eq(partners.id, partnerId)))[0]!;

async function oceanEngine(clickid: string): Promise<AdSandboxEventData[]> {
  return body<AdSandboxEventData[]>(
    await app.inject({ url: `/api/dev/ad-sandbox/oceanengine/events?clickid=${clickid}` }),
  ).data;
}

describe(`status polling of a lender without callbacks (issue 47.4) (${BACKEND})`, () => {
  it('approved, then funded: the lead follows the lender’s answers and the ad platform hears each once', async () => {
    const clickid = `POLL${Date.now().toString(36)}`;
    const [lead] = await personWithDeliveredLeads(clickid);
    const { id: leadId, key, partnerId, code } = lead!;
    let res = await setPolling(partnerId, {
      statusQueryEndpoint: `${sandbox(code)}/status-query`,
      pollEnabled: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(body<PartnerItem>(res).data).toMatchObject({
      pollEnabled: true,
      pollIntervalMinutes: 5,
      pollLastAt: null,
    });

    // Nothing said yet: asked, no news.
    await app.services.delivery.drain();
    expect(await leadOutcome(leadId)).toBeNull();
    expect((await lenderRow(partnerId)).pollLastError).toBeNull();
    expect((await lenderRow(partnerId)).pollLastAt).not.toBeNull();

    await sandboxSays(code, { leadId: key, status: 'approved', limitFen: 2_000_000, rateBps: 1800 });
    // Not due before its interval: the lender is not asked.
    await app.services.delivery.drain();
    expect(await leadOutcome(leadId)).toBeNull();
    await intervalPasses(partnerId);
    await app.services.delivery.drain();
    expect(await leadOutcome(leadId)).toBe('approved');

    // The same answer again at the next round: a repeat, nothing new.
    await intervalPasses(partnerId);
    await app.services.delivery.drain();
    expect(await outcomesOf(leadId)).toEqual([
      { transactionId: `poll:approved:${key}`, status: 'approved', applied: true },
    ]);

    await sandboxSays(code, { leadId: key, status: 'funded', amountFen: 1_234_567, termMonths: 12 });
    await intervalPasses(partnerId);
    await app.services.delivery.drain();
    expect(await leadOutcome(leadId)).toBe('funded');
    // Funded is final: the lead is no longer asked about.
    await intervalPasses(partnerId);
    await app.services.delivery.drain();
    expect(await outcomesOf(leadId)).toEqual([
      { transactionId: `poll:approved:${key}`, status: 'approved', applied: true },
      { transactionId: `poll:funded:${key}`, status: 'funded', applied: true },
    ]);

    const events = await oceanEngine(clickid);
    expect(events.filter((e) => e.eventType === 'loan_credit').map((e) => e.valueFen)).toEqual([2_000_000]);
    expect(events.filter((e) => e.eventType === 'loan').map((e) => e.valueFen)).toEqual([1_234_567]);

    // In the console: the last round and that it went well.
    res = await app.inject({ url: `/api/admin/partners/${partnerId}`, headers: { accesstoken: admin } });
    expect(body<PartnerItem>(res).data).toMatchObject({ pollEnabled: true, pollLastError: null });
    expect(body<PartnerItem>(res).data.pollLastAt).toEqual(expect.any(String));
  });

  it('a status URL that refuses or cannot be reached is recorded and asked again later, without harm', async () => {
    const rows = await personWithDeliveredLeads(`PF${Date.now().toString(36)}`);
    const [lead, other] = rows;
    const { id: leadId, key, partnerId, code } = lead!;
    await sandboxSays(code, { leadId: key, status: 'approved', limitFen: 500_000 });

    // Unreachable (nothing listens there).
    let res = await setPolling(partnerId, {
      statusQueryEndpoint: `${UNREACHABLE}/status`,
      pollEnabled: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    await intervalPasses(partnerId);
    await app.services.delivery.drain();
    expect((await lenderRow(partnerId)).pollLastError).toBe('连接被拒绝');
    expect(await leadOutcome(leadId)).toBeNull();

    // Refused: another lender's status query (our signature is not its lender's): HTTP 401.
    res = await setPolling(partnerId, {
      statusQueryEndpoint: `${sandbox(other!.code)}/status-query`,
      pollEnabled: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    await intervalPasses(partnerId);
    await app.services.delivery.drain();
    expect((await lenderRow(partnerId)).pollLastError).toBe('HTTP 401');
    expect(await outcomesOf(leadId)).toEqual([]);

    // A row changed behind the console's back to a private address: refused without connecting.
    await app.database.db
      .update(partners)
      .set({ statusQueryEndpoint: 'http://10.0.0.7/status', pollNextAt: null })
      .where(eq(partners.id, partnerId));
    await app.services.delivery.drain();
    expect((await lenderRow(partnerId)).pollLastError).toMatch(/^接收地址不允许/);

    // Put right: asked again at the next round, the answer taken.
    res = await setPolling(partnerId, {
      statusQueryEndpoint: `${sandbox(code)}/status-query`,
      pollEnabled: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    await intervalPasses(partnerId);
    await app.services.delivery.drain();
    expect((await lenderRow(partnerId)).pollLastError).toBeNull();
    expect(await leadOutcome(leadId)).toBe('approved');
    expect(await outcomesOf(leadId)).toEqual([
      { transactionId: `poll:approved:${key}`, status: 'approved', applied: true },
    ]);

    // Polling off: the lender is not asked however long it waits.
    res = await setPolling(partnerId, {
      statusQueryEndpoint: `${sandbox(code)}/status-query`,
      pollEnabled: false,
    });
    expect(res.statusCode, res.body).toBe(200);
    await sandboxSays(code, { leadId: key, status: 'funded', amountFen: 400_000 });
    await intervalPasses(partnerId);
    await app.services.delivery.drain();
    expect(await leadOutcome(leadId)).toBe('approved');
  });

  it('the console refuses polling without a URL, and a URL the address rules refuse, in words', async () => {
    const [p] = await app.database.db
      .select({ id: partners.id })
      .from(partners)
      .where(eq(partners.code, 'partner-h'));
    let res = await setPolling(p!.id, { statusQueryEndpoint: null, pollEnabled: true });
    expect(res.statusCode).toBe(400);
    expect(body(res)).toMatchObject({
      msg: '开启状态轮询须填写状态查询地址',
      data: { fields: [{ field: 'statusQueryEndpoint' }] },
    });
    res = await setPolling(p!.id, { statusQueryEndpoint: 'http://10.0.0.7/status', pollEnabled: true });
    expect(res.statusCode).toBe(400);
    expect(body(res).msg).toMatch(/^状态查询地址/);
    expect(body(res).data).toMatchObject({ fields: [{ field: 'statusQueryEndpoint' }] });
  });

  it('the sandbox lender answers only with what it was told, only when signed', async () => {
    const rows = await personWithDeliveredLeads(`SB${Date.now().toString(36)}`);
    const { key, code } = rows[0]!;
    let res = await app.inject({
      method: 'POST',
      url: `/api/dev/partner-sandbox/${code}/statuses`,
      payload: { leadId: 'never-received', status: 'approved', limitFen: 1 },
    });
    expect(res.statusCode).toBe(404);
    expect(body(res).msg).toBe('沙盒机构没有收到这条线索');
    res = await app.inject({
      method: 'POST',
      url: `/api/dev/partner-sandbox/${code}/status-query`,
      payload: { version: 1, leadIds: [key] },
    });
    expect(res.statusCode).toBe(401);
    const mine = await app.database.db
      .select({ id: leads.id })
      .from(leads)
      .where(and(eq(leads.idempotencyKey, key), inArray(leads.status, ['delivered'])));
    expect(mine).toHaveLength(1);
  });
});
