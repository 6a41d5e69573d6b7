/**
 * 隐私政策 第六条: a person objects (by phone or e-mail) to conversion reporting and staff record it in the
 * console (`PUT /api/admin/users/:id/ad-reporting`). Objecting drops their pending reports and unlinks their
 * clicks in one go; later steps and logins reach no ad platform; withdrawing lets later clicks count again.
 */
import type { AdSandboxEventData } from '@lm/shared/schemas/ad-sandbox';
import type { AuditEntry } from '@lm/shared/schemas/admin';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { adClicks, adReports, leads, partners } from '../src/db/schema.ts';
import { consentToApiOffers } from './fixtures.ts';
import { BACKEND, body, loginAs, newIp, newPhone, staffLogin, useTestApp } from './helpers.ts';

const ctx = useTestApp({ env: { PARTNER_SANDBOX: 'on' } });
let app: FastifyInstance;
let admin = '';
let operator = '';
let viewer = '';
beforeAll(async () => {
  app = ctx.app;
  await app.listen({ port: 0, host: '127.0.0.1' });
  admin = (await staffLogin(app, 'admin')).token;
  operator = (await staffLogin(app, 'operator')).token;
  viewer = (await staffLogin(app, 'viewer')).token;
});

const track = (clickid: string) => ({
  track_report: JSON.stringify({ platform: 'oceanengine', clickid }),
});
/** A login from an Ocean Engine ad (the one-minute resend wait of an earlier code lifted, as auth.test.ts does). */
async function loginFromAd(phone: string, clickid: string) {
  await app.services.limiter.store.clear(`sms:phone:minute:login:${app.services.phoneIndex(phone)}`);
  return loginAs(app, phone, { adChannelCode: 'demo' }, track(clickid));
}

const setObjection = (token: string, uid: number | string, payload: unknown) =>
  app.inject({
    method: 'PUT',
    url: `/api/admin/users/${uid}/ad-reporting`,
    headers: { accesstoken: token },
    remoteAddress: newIp(),
    payload: payload as object,
  });

async function clickOwner(clickid: string): Promise<number | null> {
  const [row] = await app.database.db
    .select({ userId: adClicks.userId })
    .from(adClicks)
    .where(and(eq(adClicks.platform, 'oceanengine'), eq(adClicks.clickId, clickid)));
  expect(row, `click ${clickid} recorded`).toBeDefined();
  return row!.userId;
}

const reportsOf = (uid: number) => app.database.db.select().from(adReports).where(eq(adReports.userId, uid));

async function oceanEngine(clickid: string): Promise<AdSandboxEventData[]> {
  return body<AdSandboxEventData[]>(
    await app.inject({ url: `/api/dev/ad-sandbox/oceanengine/events?clickid=${clickid}` }),
  ).data;
}

const sandboxOutcome = (code: string, payload: object) =>
  app.inject({ method: 'POST', url: `/api/dev/partner-sandbox/${code}/outcomes`, payload });

async function detailObjectedAt(uid: number): Promise<string | null> {
  const res = await app.inject({ url: `/api/admin/users/${uid}`, headers: { accesstoken: viewer } });
  expect(res.statusCode, res.body).toBe(200);
  return body<{ user: { adReportingObjectedAt: string | null } }>(res).data.user.adReportingObjectedAt;
}

describe(`objection to conversion reporting (隐私政策 第六条) (${BACKEND})`, () => {
  it('objecting ends the attribution and stops every report; withdrawing lets later clicks count', async () => {
    const tag = Date.now().toString(36);
    const phone = newPhone();
    const first = `OBJ1${tag}`;
    const { token, uid } = await loginFromAd(phone, first);
    const { auth } = await consentToApiOffers(app, token);
    expect(auth.statusCode, auth.body).toBe(200);
    expect(await clickOwner(first)).toBe(uid);
    // Registration and form reports are queued, not yet sent.
    const queued = await reportsOf(uid);
    expect(queued.filter((r) => r.status === 'pending').length).toBeGreaterThan(0);
    expect(await detailObjectedAt(uid)).toBeNull();

    // The operator records the objection.
    let res = await setObjection(operator, uid, { objected: true });
    expect(res.statusCode, res.body).toBe(200);
    const objectedAt = body<{ adReportingObjectedAt: string | null }>(res).data.adReportingObjectedAt;
    expect(objectedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(await detailObjectedAt(uid)).toBe(objectedAt);
    expect((await reportsOf(uid)).filter((r) => r.status === 'pending')).toEqual([]);
    expect(await clickOwner(first)).toBeNull();
    // Again: nothing changes, the time stays.
    res = await setObjection(operator, uid, { objected: true });
    expect(body(res).data).toEqual({ adReportingObjectedAt: objectedAt });

    // A lender's approval reaches no platform; the negative signal is not written either.
    const [lead] = await app.database.db
      .select({ key: leads.idempotencyKey, partnerCode: partners.code })
      .from(leads)
      .innerJoin(partners, eq(partners.id, leads.partnerId))
      .where(eq(leads.userId, uid));
    res = await sandboxOutcome(lead!.partnerCode, {
      leadId: lead!.key,
      status: 'approved',
      limitFen: 1_000_000,
    });
    expect(res.statusCode, res.body).toBe(200);
    await app.services.delivery.drain();
    expect(await oceanEngine(first)).toEqual([]);
    expect(await reportsOf(uid)).toEqual([]);
    expect(await app.services.adReports.record({ userId: uid, step: 'invalid', reference: 'x' })).toEqual({
      queued: false,
      reason: 'objected',
    });

    // A new visit from another ad: the click is kept, but not bound to the person.
    const second = `OBJ2${tag}`;
    await loginFromAd(phone, second);
    expect(await clickOwner(second)).toBeNull();

    // Withdrawn (by an administrator): a later click counts again, the lender's loan reaches its platform.
    res = await setObjection(admin, uid, { objected: false });
    expect(res.statusCode, res.body).toBe(200);
    expect(body(res).data).toEqual({ adReportingObjectedAt: null });
    expect(await detailObjectedAt(uid)).toBeNull();
    expect(await clickOwner(second)).toBeNull(); // nothing is restored
    const third = `OBJ3${tag}`;
    await loginFromAd(phone, third);
    expect(await clickOwner(third)).toBe(uid);
    res = await sandboxOutcome(lead!.partnerCode, {
      leadId: lead!.key,
      status: 'funded',
      amountFen: 800_000,
      termMonths: 12,
    });
    expect(res.statusCode, res.body).toBe(200);
    await app.services.delivery.drain();
    expect((await oceanEngine(third)).map((e) => [e.eventType, e.valueFen])).toContainEqual([
      'loan',
      800_000,
    ]);
    expect(await oceanEngine(first)).toEqual([]);

    // Both changes are in the audit log, with who and the times before and after.
    const log = body<{ list: AuditEntry[] }>(
      await app.inject({
        url: `/api/admin/audit-log?entity=user&entityId=${uid}&action=ad-reporting`,
        headers: { accesstoken: admin },
      }),
    ).data.list;
    expect(log.map((e) => [e.after, e.before])).toEqual([
      [{ adReportingObjectedAt: null }, { adReportingObjectedAt: objectedAt }],
      [{ adReportingObjectedAt: objectedAt }, { adReportingObjectedAt: null }],
    ]);
  });

  it('viewers may not change it; bad bodies and unknown people are refused in words', async () => {
    const { uid } = await loginAs(app);
    let res = await setObjection(viewer, uid, { objected: true });
    expect(res.statusCode).toBe(403);
    expect(await detailObjectedAt(uid)).toBeNull();

    for (const payload of [{}, { objected: 'yes' }, { objected: 1 }, null]) {
      res = await setObjection(admin, uid, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(body(res).msg).toMatch(/[\u4e00-\u9fff]/);
    }
    res = await setObjection(admin, 2_000_000_000, { objected: true });
    expect(res.statusCode).toBe(404);
    expect(body(res)).toMatchObject({ msg: '用户不存在' });
    res = await setObjection(admin, 'abc', { objected: true });
    expect(res.statusCode).toBe(400);
  });
});
