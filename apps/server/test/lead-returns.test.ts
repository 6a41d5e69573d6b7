/**
 * Issue 48.4: a lender returns a delivered lead through its signed API (the sandbox lender through
 * `POST /api/dev/partner-sandbox/{code}/returns`, exactly as a lender would) within its window, once, up to its
 * monthly rate; an accepted return nets the lead out of the ledger and sends the ad platform its negative
 * signal; a doubtful one waits for staff, who accept or reject it in the console (audited).
 */
import type { AddressInfo } from 'node:net';
import {
  AUDIT_ACTION_LABELS,
  AUDIT_ENTITY_LABELS,
  auditFieldLabel,
  auditValueText,
} from '@lm/shared/audit-labels';
import type { AdSandboxEventData } from '@lm/shared/schemas/ad-sandbox';
import type { PartnerItem } from '@lm/shared/schemas/admin-catalog';
import type { AdminReturnItem, AdminReturnList, LenderReturnData } from '@lm/shared/schemas/returns';
import { shanghaiDate } from '@lm/shared/time';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, leadReturns, leads, monthCloses, partners, products } from '../src/db/schema.ts';
import { nextMonth } from '../src/modules/ledger/rules.ts';
import { consentToApiOffers } from './fixtures.ts';
import { BACKEND, body, loginAs, newPhone, staffLogin, useTestApp } from './helpers.ts';
import { pointLendersAt, signedCallback } from './lenders.ts';

type Role = 'admin' | 'operator' | 'viewer' | 'channel_partner';
const ctx = useTestApp({ env: { PARTNER_SANDBOX: 'on', DELIVERY_WORKER: 'off' } });
let app: FastifyInstance;
const tokens = {} as Record<Role, string>;
const CPL = 3_500;

beforeAll(async () => {
  app = ctx.app;
  await app.listen({ port: 0, host: '127.0.0.1' });
  // The demo lenders take leads at the sandbox of this app (the port it listens on).
  const { port } = app.server.address() as AddressInfo;
  await pointLendersAt(app, `http://127.0.0.1:${port}/api/dev/partner-sandbox`);
  for (const role of ['admin', 'operator', 'viewer', 'channel_partner'] as const)
    tokens[role] = (
      await staffLogin(app, role, role === 'channel_partner' ? { channelCodes: ['demo'] } : {})
    ).token;
  // Every product earns a CPL from today on (through the console's call).
  for (const p of await app.database.db.select({ id: products.id }).from(products)) {
    const res = await staff('admin', 'POST', `/api/admin/products/${p.id}/prices`, {
      model: 'cpl',
      amountFen: CPL,
      effectiveFrom: shanghaiDate(),
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  // The rate is its own test: until then every lender may return every lead.
  await app.database.db.update(partners).set({ maxReturnRateBps: 10_000 });
});

function staff(role: Role, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  return app.inject({ method, url, headers: { accesstoken: tokens[role] }, ...(payload ? { payload } : {}) });
}

interface Lead {
  id: number;
  key: string;
  partnerId: number;
  partnerCode: string;
}

/** A person who consented to the API lenders; their leads delivered (and booked) unless `deliver` is false. */
async function personWithLead(
  clickid = `RET${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
  deliver = true,
) {
  const { token, uid } = await loginAs(
    app,
    newPhone(),
    { adChannelCode: 'demo' },
    { track_report: JSON.stringify({ platform: 'oceanengine', clickid }) },
  );
  const { auth } = await consentToApiOffers(app, token);
  expect(auth.statusCode, auth.body).toBe(200);
  if (deliver) await app.services.delivery.drain();
  const rows = await app.database.db
    .select({
      id: leads.id,
      key: leads.idempotencyKey,
      partnerId: leads.partnerId,
      partnerCode: partners.code,
      status: leads.status,
    })
    .from(leads)
    .innerJoin(partners, eq(partners.id, leads.partnerId))
    .where(eq(leads.userId, uid))
    .orderBy(leads.id);
  expect(rows.length).toBeGreaterThan(0);
  if (deliver) expect(rows[0]!.status).toBe('delivered');
  return { uid, clickid, lead: rows[0]! as Lead, leads: rows as Lead[] };
}

const sandboxReturn = (code: string, payload: object) =>
  app.inject({ method: 'POST', url: `/api/dev/partner-sandbox/${code}/returns`, payload });

async function secretOf(code: string) {
  return (await app.services.partnerCallbacks.signingPartner(code))!.secret;
}

/** The lead's entries on the lender and on channels, each summed. */
async function netOf(leadId: number) {
  const entries = await app.services.ledgerRepo.entriesOfLead(leadId);
  const sum = (party: string) =>
    entries.filter((e) => e.partyType === party).reduce((s, e) => s + Number(e.amountFen), 0);
  return { lender: sum('lender'), channel: sum('channel'), entries };
}

async function oceanEngine(clickid: string): Promise<AdSandboxEventData[]> {
  return body<AdSandboxEventData[]>(
    await app.inject({ url: `/api/dev/ad-sandbox/oceanengine/events?clickid=${clickid}` }),
  ).data;
}

async function returnsList(role: Role, query = '') {
  const res = await staff(role, 'GET', `/api/admin/returns${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return body<AdminReturnList>(res).data;
}

describe(`lead returns (issue 48.4) (${BACKEND})`, () => {
  it('the sandbox lender returns a delivered lead: the ledger nets it to 0, the platform hears it was invalid', async () => {
    const { lead, clickid } = await personWithLead();
    const before = await netOf(lead.id);
    expect(before.lender).toBe(CPL);
    const res = await sandboxReturn(lead.partnerCode, { leadId: lead.key, reason: 'duplicate' });
    expect(res.statusCode, res.body).toBe(200);
    const data = body<LenderReturnData>(res).data;
    expect(data).toMatchObject({
      leadId: lead.key,
      reason: 'duplicate',
      status: 'accepted',
      disputeReason: null,
      reversedFen: CPL,
      repeated: false,
    });
    const after = await netOf(lead.id);
    expect(after.lender).toBe(0);
    expect(after.entries.find((e) => e.kind === 'return')).toMatchObject({
      reference: `return:${data.returnId}`,
      amountFen: -CPL,
      partyId: lead.partnerId,
      leadId: lead.id,
      channelCode: 'demo',
      reason: 'duplicate',
    });
    // A second return, with another transaction id: refused in words.
    const again = await sandboxReturn(lead.partnerCode, { leadId: lead.key, reason: 'fraud' });
    expect(again.statusCode).toBe(409);
    expect(body(again)).toMatchObject({
      code: 1106,
      msg: expect.stringContaining('只能退回一次'),
      data: { reason: 'already_returned', returnId: data.returnId, status: 'accepted' },
    });
    // The negative signal (ADR 072): Ocean Engine's 无效线索, once.
    await app.services.delivery.drain();
    expect((await oceanEngine(clickid)).map((e) => e.eventType).sort()).toEqual([
      'active_register',
      'failed_lead',
      'form',
    ]);
    // Nothing more is booked for it.
    await app.services.ledgerPoster.runOnce();
    expect((await netOf(lead.id)).lender).toBe(0);
  });

  it('a return nets the month that charged the lead; once that month is closed, the next open month (late)', async () => {
    const { lead } = await personWithLead();
    const [charged] = (await netOf(lead.id)).entries;
    const month = charged!.month;
    expect(await app.services.ledger.close(month, null)).toBe(true);
    try {
      const res = await sandboxReturn(lead.partnerCode, { leadId: lead.key, reason: 'invalid_phone' });
      expect(res.statusCode, res.body).toBe(200);
      const ret = (await netOf(lead.id)).entries.find((e) => e.kind === 'return')!;
      expect(ret).toMatchObject({ eventMonth: month, month: nextMonth(month), amountFen: -CPL });
      // The closed month's entries of the lead are what they were.
      const inClosed = (await netOf(lead.id)).entries.filter((e) => e.month === month);
      expect(inClosed.map((e) => e.id)).toEqual([charged!.id]);
    } finally {
      await app.database.db.delete(monthCloses).where(eq(monthCloses.month, month));
    }
  });

  it('a lead whose CPL is not booked yet: the return books it first, then reverses it', async () => {
    const { lead } = await personWithLead(undefined, false);
    await app.database.db
      .update(leads)
      .set({ status: 'delivered', deliveredAt: new Date() })
      .where(eq(leads.id, lead.id));
    expect((await netOf(lead.id)).entries).toEqual([]);
    const res = await sandboxReturn(lead.partnerCode, { leadId: lead.key, reason: 'invalid_phone' });
    expect(res.statusCode, res.body).toBe(200);
    expect(body<LenderReturnData>(res).data.reversedFen).toBe(CPL);
    const net = await netOf(lead.id);
    expect(net.entries.map((e) => [e.kind, Number(e.amountFen)])).toEqual([
      ['lead_revenue', CPL],
      ['return', -CPL],
    ]);
  });

  it('signed calls: the same transaction id is answered as the first time; unsigned, forged, unknown and bad ones refused', async () => {
    const { lead, leads: all } = await personWithLead();
    const secret = await secretOf(lead.partnerCode);
    const call = (payload: object, opts: { secret?: string; code?: string } = {}) =>
      signedCallback(
        app,
        opts.code ?? lead.partnerCode,
        opts.secret ?? secret,
        payload,
        '/api/partner/returns',
      );
    const ret = { version: 1, transactionId: 'R-1', leadId: lead.key, reason: 'out_of_area' };
    let res = await call(ret);
    expect(res.statusCode, res.body).toBe(200);
    const first = body<LenderReturnData>(res).data;
    expect(first).toMatchObject({
      transactionId: 'R-1',
      status: 'accepted',
      repeated: false,
      reversedFen: CPL,
    });
    res = await call(ret);
    expect(res.statusCode).toBe(200);
    expect(body<LenderReturnData>(res).data).toEqual({ ...first, repeated: true });
    // The same transaction id naming another lead: still the first answer (nothing happens to the other).
    const other = all.find((l) => l.partnerId === lead.partnerId && l.id !== lead.id);
    if (other) {
      res = await call({ ...ret, leadId: other.key });
      expect(body<LenderReturnData>(res).data).toMatchObject({ returnId: first.returnId, repeated: true });
    }
    expect(
      await app.database.db.select().from(leadReturns).where(eq(leadReturns.leadId, lead.id)),
    ).toHaveLength(1);

    res = await app.inject({ method: 'POST', url: '/api/partner/returns', payload: ret });
    expect(res.statusCode).toBe(401);
    res = await call({ ...ret, transactionId: 'R-2' }, { secret: 'not-the-secret' });
    expect(res.statusCode).toBe(401);
    expect(body(res).code).toBe(1103);
    // Another lender cannot return this lender's lead.
    const someoneElse = (await app.database.db.select().from(partners)).find(
      (p) => p.id !== lead.partnerId && p.signingSecretEnc,
    )!;
    res = await call(
      { ...ret, transactionId: 'R-3' },
      { code: someoneElse.code, secret: await secretOf(someoneElse.code) },
    );
    expect(res.statusCode).toBe(404);
    expect(body(res).msg).toContain('线索不存在');
    res = await call({ ...ret, transactionId: 'R-4', reason: 'other' });
    expect(res.statusCode).toBe(400);
    expect(body(res).msg).toContain('reasonText');
    res = await call({ ...ret, transactionId: 'R-5', reason: 'spam' });
    expect(res.statusCode).toBe(400);
    res = await call({ ...ret, transactionId: 'R-6', reason: 'other', reasonText: 'x'.repeat(201) });
    expect(res.statusCode).toBe(400);
    res = await sandboxReturn(lead.partnerCode, { leadId: 'no-such-lead', reason: 'fraud' });
    expect(res.statusCode).toBe(404);
    res = await sandboxReturn('no-such-lender', { leadId: lead.key, reason: 'fraud' });
    expect(res.statusCode).toBe(404);
  });

  it('outside the lender’s window, or a lead never delivered: refused in words', async () => {
    const { leads: all } = await personWithLead();
    // The lead of a lender nothing was returned to yet (the rate is not this test's).
    const returned = new Set((await app.database.db.select().from(leadReturns)).map((r) => r.partnerId));
    const lead = all.find((l) => !returned.has(l.partnerId)) ?? all[0]!;
    await app.database.db
      .update(leads)
      .set({ deliveredAt: new Date(Date.now() - 8 * 86_400_000) })
      .where(eq(leads.id, lead.id));
    let res = await sandboxReturn(lead.partnerCode, { leadId: lead.key, reason: 'duplicate' });
    expect(res.statusCode).toBe(409);
    expect(body(res)).toMatchObject({
      code: 1106,
      msg: expect.stringContaining('已超过退回期限：线索推送后 7 天内可退回'),
      data: { reason: 'window_passed', windowDays: 7 },
    });
    // A longer window set on the lender (the console's partner form): now it may.
    const partner = body<PartnerItem>(
      await staff('admin', 'GET', `/api/admin/partners/${lead.partnerId}`),
    ).data;
    expect(partner).toMatchObject({ returnWindowDays: 7, maxReturnRateBps: 10_000 });
    const put = await staff('admin', 'PUT', `/api/admin/partners/${lead.partnerId}`, {
      legalName: partner.legalName,
      licenceNumber: partner.licenceNumber,
      contactName: partner.contactName,
      apiEndpoint: partner.apiEndpoint,
      dupCheckEndpoint: partner.dupCheckEndpoint,
      allowedHosts: partner.allowedHosts,
      deliveryModes: partner.deliveryModes,
      status: partner.status,
      statusQueryEndpoint: partner.statusQueryEndpoint,
      pollEnabled: partner.pollEnabled,
      pollIntervalMinutes: partner.pollIntervalMinutes,
      returnWindowDays: 10,
      maxReturnRateBps: 10_000,
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(body<PartnerItem>(put).data.returnWindowDays).toBe(10);
    const [audit] = await app.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'partner'), eq(auditLog.entityId, String(lead.partnerId))))
      .orderBy(auditLog.id);
    expect(audit).toBeDefined();
    for (const bad of [0, 91, 1.5]) {
      const r = await staff('admin', 'PUT', `/api/admin/partners/${lead.partnerId}`, {
        ...partner,
        returnWindowDays: bad,
      });
      expect(r.statusCode).toBe(400);
    }
    res = await sandboxReturn(lead.partnerCode, { leadId: lead.key, reason: 'duplicate' });
    expect(res.statusCode, res.body).toBe(200);
    await app.database.db
      .update(partners)
      .set({ returnWindowDays: 7 })
      .where(eq(partners.id, lead.partnerId));

    // Not delivered (still queued).
    const queued = await personWithLead(undefined, false);
    res = await sandboxReturn(queued.lead.partnerCode, { leadId: queued.lead.key, reason: 'duplicate' });
    expect(res.statusCode).toBe(409);
    expect(body(res).data).toEqual({ reason: 'not_delivered' });
  });

  it('above the monthly rate: refused, saying the limit and the counts', async () => {
    const { lead } = await personWithLead();
    // 0.01 %: at most one return this month — and this lender has returned some already.
    await app.database.db
      .update(partners)
      .set({ maxReturnRateBps: 1 })
      .where(eq(partners.id, lead.partnerId));
    let res = await sandboxReturn(lead.partnerCode, { leadId: lead.key, reason: 'fraud' });
    expect(res.statusCode).toBe(409);
    const data = body<{ reason: string; delivered: number; returned: number; allowed: number }>(res).data;
    expect(data).toMatchObject({ reason: 'rate_exceeded', maxRateBps: 1, allowed: 1 });
    expect(data.returned).toBeGreaterThanOrEqual(1);
    expect(body(res).msg).toBe(
      `超过每月最高退回率 0.01%：${shanghaiDate().slice(0, 7)} 推送的 ${data.delivered} 条线索最多可退回 1 条，已退回 ${data.returned} 条`,
    );
    expect(await app.database.db.select().from(leadReturns).where(eq(leadReturns.leadId, lead.id))).toEqual(
      [],
    );
    await app.database.db
      .update(partners)
      .set({ maxReturnRateBps: 10_000 })
      .where(eq(partners.id, lead.partnerId));
    res = await sandboxReturn(lead.partnerCode, { leadId: lead.key, reason: 'fraud' });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('a disputed return waits for staff: the operator accepts one (reversed, audited), rejects another', async () => {
    const a = await personWithLead();
    let res = await sandboxReturn(a.lead.partnerCode, {
      leadId: a.lead.key,
      reason: 'other',
      reasonText: '客户称从未申请',
    });
    expect(res.statusCode, res.body).toBe(200);
    const disputed = body<LenderReturnData>(res).data;
    expect(disputed).toMatchObject({ status: 'disputed', reversedFen: null });
    expect(disputed.disputeReason).toContain('其他');
    expect((await netOf(a.lead.id)).lender).toBe(CPL);

    // b: the lender reported it approved, then returns it as a duplicate.
    const b = await personWithLead();
    res = await app.inject({
      method: 'POST',
      url: `/api/dev/partner-sandbox/${b.lead.partnerCode}/outcomes`,
      payload: { leadId: b.lead.key, status: 'approved', limitFen: 500_000 },
    });
    expect(res.statusCode, res.body).toBe(200);
    res = await sandboxReturn(b.lead.partnerCode, { leadId: b.lead.key, reason: 'duplicate' });
    const second = body<LenderReturnData>(res).data;
    expect(second).toMatchObject({ status: 'disputed', disputeReason: '机构此前已报告该线索「已授信」' });

    // The console's list: 待审核 by default in the console; amounts for the operator, none for a viewer.
    const list = await returnsList('operator', '?status=disputed');
    const item = list.list.find((r) => r.id === disputed.returnId)!;
    expect(item).toMatchObject({
      leadId: a.lead.id,
      leadKey: a.lead.key,
      partnerId: a.lead.partnerId,
      reason: 'other',
      reasonLabel: '其他',
      reasonText: '客户称从未申请',
      status: 'disputed',
      statusLabel: '待审核',
      reversedFen: null,
      reviewedAt: null,
    });
    expect(list.amountsShown).toBe(true);
    const viewer = await returnsList('viewer', '?status=disputed');
    expect(viewer.amountsShown).toBe(false);
    for (const r of viewer.list) expect(r).not.toHaveProperty('reversedFen');
    expect(list.list.every((r) => r.status === 'disputed')).toBe(true);
    const byLender = await returnsList('admin', `?partnerId=${a.lead.partnerId}`);
    expect(byLender.list.every((r) => r.partnerId === a.lead.partnerId)).toBe(true);

    // A viewer and a channel partner may not decide; a note is required.
    expect(
      (await staff('viewer', 'POST', `/api/admin/returns/${disputed.returnId}/accept`, { note: '核实无误' }))
        .statusCode,
    ).toBe(403);
    expect((await staff('channel_partner', 'GET', '/api/admin/returns')).statusCode).toBe(403);
    expect(
      (await staff('operator', 'POST', `/api/admin/returns/${disputed.returnId}/accept`, {})).statusCode,
    ).toBe(400);
    expect(
      (await staff('operator', 'POST', '/api/admin/returns/999999/accept', { note: '核实无误' })).statusCode,
    ).toBe(404);

    res = await staff('operator', 'POST', `/api/admin/returns/${disputed.returnId}/accept`, {
      note: '已电话核实，客户未申请',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(body<AdminReturnItem>(res).data).toMatchObject({
      status: 'accepted',
      statusLabel: '已退回',
      reviewNote: '已电话核实，客户未申请',
      reversedFen: CPL,
      reviewedByName: expect.any(String),
    });
    expect((await netOf(a.lead.id)).lender).toBe(0);
    res = await staff('operator', 'POST', `/api/admin/returns/${disputed.returnId}/reject`, {
      note: '再次操作',
    });
    expect(res.statusCode).toBe(409);
    expect(body(res).msg).toContain('只有待审核的退回可以接受或驳回');

    res = await staff('admin', 'POST', `/api/admin/returns/${second.returnId}/reject`, {
      note: '机构已授信，不予退回',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(body<AdminReturnItem>(res).data).toMatchObject({ status: 'rejected', reversedFen: null });
    expect((await netOf(b.lead.id)).entries.filter((e) => e.kind === 'return')).toEqual([]);
    // Rejected: the lender cannot return it again.
    res = await sandboxReturn(b.lead.partnerCode, { leadId: b.lead.key, reason: 'fraud' });
    expect(body(res).data).toMatchObject({ reason: 'already_returned', status: 'rejected' });

    const audits = await app.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entity, 'lead_return'))
      .orderBy(auditLog.id);
    expect(audits.map((x) => [x.action, x.entityId, x.reason])).toEqual([
      ['accept', String(disputed.returnId), '已电话核实，客户未申请'],
      ['reject', String(second.returnId), '机构已授信，不予退回'],
    ]);
    expect(audits[0]!.after).toMatchObject({ status: 'accepted', reversedFen: CPL, reason: 'other' });
    // The audit log reads in words (issue 44.11): every action, subject and field has its label.
    for (const x of audits) {
      expect(AUDIT_ACTION_LABELS[x.action]).toBeDefined();
      expect(AUDIT_ENTITY_LABELS[x.entity]).toBe('线索退回');
      for (const [key, value] of Object.entries({ ...x.before, ...x.after })) {
        expect(auditFieldLabel('lead_return', key), key).not.toBe(key);
        expect(auditValueText('lead_return', key, value), key).not.toMatch(
          /^(other|accepted|disputed|rejected)$/,
        );
      }
    }
    expect(auditValueText('lead_return', 'reason', 'other')).toBe('其他');
    expect(auditValueText('lead_return', 'status', 'accepted')).toBe('已退回');
  });
});
