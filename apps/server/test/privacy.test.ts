import type {
  AdminNoticeItem,
  AdminNoticeList,
  ApplicationList,
  DataSharingEntry,
  SessionItem,
} from '@lm/shared/schemas/privacy';
import { and, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  consents,
  leads,
  matchRuns,
  partnerNoticeAttempts,
  partnerNotices,
  partners,
} from '../src/db/schema.ts';
import { decryptField } from '../src/lib/crypto.ts';
import { addWorkingDays } from '../src/modules/privacy/rules.ts';
import { DEMO_PARTNERS } from '../src/modules/products/seed.ts';
import { consentToApiOffers, FORM } from './fixtures.ts';
import {
  BACKEND,
  body,
  createTestApp,
  latestCode,
  loginAs,
  newPhone,
  post,
  sendCancellationCode,
  staffPasswordLogin,
  useTestApp,
} from './helpers.ts';
import { pointLendersAt, quickDeliveryEnv, SECRETS, signedCallback, useLocalPartner } from './lenders.ts';
import { privacyHelpers } from './privacy-helpers.ts';

const password = 'privacy staff password';
let operatorPhone: string;
let viewerPhone: string;

const partner = useLocalPartner();
const ctx = useTestApp(() => ({ env: quickDeliveryEnv(partner.url, 3) }));
beforeAll(async () => {
  await pointLendersAt(ctx.app, partner.url);
  operatorPhone = newPhone();
  viewerPhone = newPhone();
  await ctx.app.services.staff.create({ phone: operatorPhone, name: '运营', role: 'operator', password });
  await ctx.app.services.staff.create({ phone: viewerPhone, name: '只读', role: 'viewer', password });
});

const db = () => ctx.app.database.db;
const auth = (token: string) => ({ accesstoken: token });
const get = (url: string, token: string) => ctx.app.inject({ method: 'GET', url, headers: auth(token) });

const { consentingPerson, drain, cancelAccount } = privacyHelpers(() => ctx);

const noticesOf = (uid: number) =>
  db().select().from(partnerNotices).where(eq(partnerNotices.userId, uid)).orderBy(partnerNotices.id);

const staffToken = (phone: string) => staffPasswordLogin(ctx.app, phone, password);
const withdrawFrom = (partnerId: number, token: string) =>
  post(ctx.app, '/api/user/data-sharing/withdraw', { partnerId }, auth(token));

describe(`withdrawal of consent per lender (${BACKEND})`, () => {
  it('stops a pending delivery: the worker sends nothing for it, the lead is withdrawn, no notice', async () => {
    const p = await consentingPerson();
    const target = p.leads[0]!;
    const list = body<{ list: DataSharingEntry[] }>(await get('/api/user/data-sharing', p.token)).data.list;
    const entry = list.find((e) => e.partnerId === target.partnerId)!;
    expect(entry).toMatchObject({ withdrawn: false, lastSharedAt: null, notice: null });
    expect(entry.fields).toContain('mobile');
    expect(entry.fieldLabels).toContain('手机号');
    expect(entry.leads[0]!.status).toBe('pending');

    const res = await withdrawFrom(target.partnerId, p.token);
    expect(res.statusCode, res.body).toBe(200);
    const updated = body<DataSharingEntry>(res).data;
    expect(updated.withdrawn).toBe(true);
    expect(updated.withdrawnAt).not.toBeNull();
    expect(updated.leads.every((l) => l.status === 'withdrawn')).toBe(true);
    expect(updated.notice).toBeNull();

    await drain();
    expect(partner.requests.some((r) => r.key === target.key)).toBe(false);
    expect(partner.notices.some((n) => (n.body.leadIds as string[]).includes(target.key))).toBe(false);
    const [lead] = await db().select().from(leads).where(eq(leads.id, target.id));
    expect(lead).toMatchObject({ status: 'withdrawn', attempts: 0 });
    expect(await noticesOf(p.uid)).toHaveLength(0);
    // The other lenders still got theirs.
    for (const other of p.leads.filter((l) => l.partnerId !== target.partnerId)) {
      expect(partner.accepted.has(other.key)).toBe(true);
    }
    const [c] = await db().select().from(consents).where(eq(consents.id, lead!.consentId));
    expect(c!.withdrawnAt).not.toBeNull();
  });

  it('after delivery: the lender receives one signed consent.withdrawn notice (same key on retry)', async () => {
    const p = await consentingPerson();
    await drain();
    const target = p.leads[0]!;
    expect(partner.accepted.has(target.key)).toBe(true);
    // The lender fails the first try: the retry carries the same notice id.
    partner.noticeScript = (_b, attempt) => (attempt === 1 ? { status: 503 } : { status: 200 });

    const res = await withdrawFrom(target.partnerId, p.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(body<DataSharingEntry>(res).data.notice).toMatchObject({ kind: 'withdrawal', status: 'pending' });
    // A second tap changes nothing.
    const again = await withdrawFrom(target.partnerId, p.token);
    expect(again.statusCode).toBe(200);
    const notices = await noticesOf(p.uid);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({
      kind: 'withdrawal',
      partnerId: target.partnerId,
      leadKeys: [target.key],
    });

    await drain();
    const received = partner.notices.filter((n) => n.key === notices[0]!.idempotencyKey);
    expect(received).toHaveLength(2);
    for (const r of received) {
      expect(r.signatureOk).toBe(true);
      expect(r.body).toMatchObject({
        type: 'consent.withdrawn',
        noticeId: notices[0]!.idempotencyKey,
        leadIds: [target.key],
        dueAt: null,
      });
    }
    const [after] = await noticesOf(p.uid);
    expect(after).toMatchObject({ status: 'sent', attempts: 2 });
    const attempts = await db()
      .select()
      .from(partnerNoticeAttempts)
      .where(eq(partnerNoticeAttempts.noticeId, after!.id))
      .orderBy(partnerNoticeAttempts.id);
    expect(attempts.map((a) => a.outcome)).toEqual(['retry', 'sent']);
    // Nothing more goes out once sent, even after another withdrawal call.
    await withdrawFrom(target.partnerId, p.token);
    await drain();
    expect(partner.notices.filter((n) => n.key === notices[0]!.idempotencyKey)).toHaveLength(2);
    const entry = body<{ list: DataSharingEntry[] }>(
      await get('/api/user/data-sharing', p.token),
    ).data.list.find((e) => e.partnerId === target.partnerId)!;
    expect(entry).toMatchObject({ withdrawn: true, notice: { kind: 'withdrawal', status: 'sent' } });
    expect(entry.lastSharedAt).not.toBeNull();
  });

  it('404 for a lender the person never consented to; bad bodies answer the 400 envelope', async () => {
    const { token } = await loginAs(ctx.app);
    const [somePartner] = await db().select({ id: partners.id }).from(partners).limit(1);
    const none = await withdrawFrom(somePartner!.id, token);
    expect(none.statusCode).toBe(404);
    expect(body(none)).toMatchObject({ code: 404, msg: '您没有向该机构授权过个人信息' });
    for (const payload of [{}, { partnerId: 'abc' }, { partnerId: -1 }, { partnerId: 1.5 }]) {
      const bad = await post(ctx.app, '/api/user/data-sharing/withdraw', payload, auth(token));
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
      expect(body(bad).code).toBe(400);
      expect(typeof body(bad).msg).toBe('string');
    }
    const badPage = await get('/api/user/applications?page=0', token);
    expect(badPage.statusCode).toBe(400);
    expect(body(badPage).code).toBe(400);
    const noToken = await ctx.app.inject({ method: 'GET', url: '/api/user/data-sharing' });
    expect(noToken.statusCode).toBe(401);
  });
});

describe(`IDOR: one person never sees or changes another's data (${BACKEND})`, () => {
  it('another token sees none of A’s records and cannot withdraw A’s consents', async () => {
    const a = await consentingPerson();
    const b = await loginAs(ctx.app);
    expect(
      body<{ list: DataSharingEntry[] }>(await get('/api/user/data-sharing', b.token)).data.list,
    ).toEqual([]);
    expect(body<ApplicationList>(await get('/api/user/applications', b.token)).data).toMatchObject({
      total: 0,
      list: [],
    });
    const sessions = body<{ list: SessionItem[] }>(await get('/api/user/sessions', b.token)).data.list;
    expect(sessions).toHaveLength(1);
    const withdraw = await withdrawFrom(a.leads[0]!.partnerId, b.token);
    expect(withdraw.statusCode).toBe(404);
    const rows = await db().select().from(consents).where(eq(consents.userId, a.uid));
    expect(rows.every((c) => c.withdrawnAt === null)).toBe(true);
    const leadRows = await db().select().from(leads).where(eq(leads.userId, a.uid));
    expect(leadRows.every((l) => l.status === 'pending')).toBe(true);
    await drain();
  });
});

describe(`application record and sessions (${BACKEND})`, () => {
  it('lists every run with its offers, consents and delivery, paged', async () => {
    const p = await consentingPerson();
    await drain();
    const res = await get('/api/user/applications?page=1&pageSize=5', p.token);
    expect(res.statusCode, res.body).toBe(200);
    const data = body<ApplicationList>(res).data;
    expect(data).toMatchObject({ total: 1, page: 1, pageSize: 5 });
    const offers = data.list[0]!.offers;
    const consented = offers.filter((o) => o.status === 'consented');
    expect(consented.length).toBe(p.leads.length);
    for (const o of consented) {
      expect(o.consent).toMatchObject({ agreementVersion: expect.any(String), withdrawnAt: null });
      expect(o.delivery).toMatchObject({ status: 'delivered', deliveredAt: expect.any(String) });
      expect(o.lenderName).toBeTruthy();
    }
    const page2 = body<ApplicationList>(await get('/api/user/applications?page=2&pageSize=5', p.token)).data;
    expect(page2).toMatchObject({ total: 1, list: [] });
  });

  it('shows sessions masked, marks the current one, and logs out everywhere', async () => {
    const phone = newPhone();
    const first = await loginAs(ctx.app, phone);
    // Logging in again (after the one-minute resend wait) replaces the first session.
    await ctx.app.services.limiter.store.clear(
      `sms:phone:minute:login:${ctx.app.services.phoneIndex(phone)}`,
    );
    const second = await loginAs(ctx.app, phone);
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/user/sessions',
      headers: { ...auth(second.token), 'user-agent': 'x' },
    });
    const list = body<{ list: SessionItem[] }>(res).data.list;
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ current: true, active: true, revokeReason: null });
    expect(list[1]).toMatchObject({ current: false, active: false, revokeReason: 'replaced' });
    for (const s of list) expect(s.ip).toMatch(/^\d+\.\d+\.\*\.\*$/);
    expect(first.uid).toBe(second.uid);

    const out = await post(ctx.app, '/api/user/sessions/logout-all', undefined, auth(second.token));
    expect(body(out)).toMatchObject({ code: 200, data: { revoked: 1 } });
    const after = await get('/api/user/sessions', second.token);
    expect(after.statusCode).toBe(401);
    expect(body(after).code).toBe(1005);
  });
});

describe(`export (${BACKEND})`, () => {
  it('downloads the person’s form data and consents, and nothing of another person', async () => {
    const other = await consentingPerson({ ...FORM, realName: '李四', identity: '440305198806151235' });
    const p = await consentingPerson();
    await drain();
    const res = await get('/api/user/export', p.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="my-data-\d{8}\.json"$/);
    expect(res.headers['cache-control']).toBe('no-store');
    const data = JSON.parse(res.body) as {
      account: { uid: number; phone: string };
      applicationDraft: { data: Record<string, unknown> };
      consents: { textHash: string; agreementVersion: string; fields: string[]; lenderName: string }[];
      leads: { fieldsShared: Record<string, unknown>; status: string }[];
      matchRuns: { offers: unknown[] }[];
      sessions: unknown[];
    };
    expect(data.account).toMatchObject({ uid: p.uid, phone: p.phone });
    expect(data.applicationDraft.data).toMatchObject({ realName: '张三', identity: FORM.identity });
    expect(data.consents).toHaveLength(p.leads.length);
    for (const c of data.consents) {
      expect(c.textHash).toMatch(/^[0-9a-f]{64}$/);
      expect(c.agreementVersion).toBeTruthy();
    }
    expect(data.leads.every((l) => l.fieldsShared.mobile === p.phone)).toBe(true);
    expect(data.matchRuns).toHaveLength(1);
    expect(data.sessions.length).toBeGreaterThan(0);
    // Nothing of the other person.
    expect(res.body).not.toContain(other.phone);
    expect(res.body).not.toContain('李四');
    expect(res.body).not.toContain('440305198806151235');
    for (const l of other.leads) expect(res.body).not.toContain(l.key);
  });

  it('is limited to 10 a day per person', async () => {
    const { token } = await loginAs(ctx.app);
    for (let i = 0; i < 10; i++) expect((await get('/api/user/export', token)).statusCode).toBe(200);
    const limited = await get('/api/user/export', token);
    expect(limited.statusCode).toBe(429);
    expect(body(limited).code).toBe(429);
  });
});

describe(`deletion on cancellation (${BACKEND})`, () => {
  it('queues one deletion per lender that received data, due in 15 working days, confirmed by answer or callback, listed in the console', async () => {
    const p = await consentingPerson();
    await drain();
    const partnerIds = [...new Set(p.leads.map((l) => l.partnerId))];
    // One lender answers {deleted:true} at once; the others acknowledge and confirm later by callback.
    const answering = p.leads[0]!.partnerCode;
    partner.noticeScript = (b) =>
      b.type === 'data.deletion_requested' &&
      (b.leadIds as string[]).some((k) => p.leads.find((l) => l.key === k)?.partnerCode === answering)
        ? { status: 200, body: { deleted: true } }
        : { status: 200, body: { received: true } };

    const before = new Date();
    await cancelAccount(p);
    const after = new Date();
    const notices = await noticesOf(p.uid);
    expect(notices.map((n) => n.partnerId).sort()).toEqual([...partnerIds].sort());
    for (const n of notices) {
      expect(n.kind).toBe('deletion');
      expect(n.status).toBe('pending');
      const expected = [addWorkingDays(before, 15).getTime(), addWorkingDays(after, 15).getTime()];
      expect(expected).toContain(n.dueAt!.getTime());
      expect(n.leadKeys.sort()).toEqual(
        p.leads
          .filter((l) => l.partnerId === n.partnerId)
          .map((l) => l.key)
          .sort(),
      );
    }
    // The copies of the answers kept with the leads and the match are erased; consents stay.
    const leadRows = await db().select().from(leads).where(eq(leads.userId, p.uid));
    for (const l of leadRows) expect(decryptField(ctx.app.services.keys.ring, l.payloadEnc)).toBe('{}');
    const [run] = await db().select().from(matchRuns).where(eq(matchRuns.userId, p.uid));
    expect(decryptField(ctx.app.services.keys.ring, run!.profileEnc)).toBe('{}');
    const kept = await db().select().from(consents).where(eq(consents.userId, p.uid));
    expect(kept).toHaveLength(p.leads.length);
    expect(kept.every((c) => c.withdrawnAt !== null && /^[0-9a-f]{64}$/.test(c.textHash))).toBe(true);

    await drain();
    const sent = await noticesOf(p.uid);
    for (const n of sent) {
      const code = p.leads.find((l) => l.partnerId === n.partnerId)!.partnerCode;
      expect(n.status).toBe(code === answering ? 'confirmed' : 'sent');
      const received = partner.notices.filter((r) => r.key === n.idempotencyKey);
      expect(received).toHaveLength(1);
      expect(received[0]!.signatureOk).toBe(true);
      expect(received[0]!.body).toMatchObject({
        type: 'data.deletion_requested',
        noticeId: n.idempotencyKey,
        dueAt: n.dueAt!.toISOString(),
      });
    }

    // The console lists them with their deadlines.
    const opToken = await staffToken(operatorPhone);
    const viewerToken = await staffToken(viewerPhone);
    const listed = body<AdminNoticeList>(
      await get('/api/admin/privacy/deletions?pageSize=100', viewerToken),
    ).data.list.filter((i) => i.userId === p.uid);
    expect(listed).toHaveLength(notices.length);
    for (const i of listed) {
      expect(i).toMatchObject({ kind: 'deletion', overdue: false, phoneMasked: '已注销' });
      if (i.status !== 'confirmed') expect(i.workingDaysLeft).toBe(15);
    }

    // A lender that has not confirmed gets overdue once the deadline passes …
    const unconfirmed = sent.filter((n) => n.status === 'sent');
    expect(unconfirmed.length, 'the sample form reaches at least two API lenders').toBeGreaterThan(0);
    {
      const late = unconfirmed[0]!;
      await db()
        .update(partnerNotices)
        .set({ dueAt: new Date(Date.now() - 3 * 86_400_000) })
        .where(eq(partnerNotices.id, late.id));
      const overdue = body<AdminNoticeList>(
        await get('/api/admin/privacy/deletions?overdue=1&pageSize=100', viewerToken),
      ).data;
      const mine = overdue.list.find((i) => i.id === late.id)!;
      expect(mine.overdue).toBe(true);
      expect(mine.workingDaysLeft).toBeLessThan(0);
      expect(overdue.list.every((i) => i.overdue)).toBe(true);
      const notOverdue = body<AdminNoticeList>(
        await get('/api/admin/privacy/deletions?overdue=0&pageSize=100', viewerToken),
      ).data.list;
      expect(notOverdue.some((i) => i.id === late.id)).toBe(false);

      // … until it confirms by the signed callback (idempotent; another lender cannot).
      const code = p.leads.find((l) => l.partnerId === late.partnerId)!.partnerCode;
      const stranger = DEMO_PARTNERS.find((d) => d.code !== code)!;
      const wrong = await signedCallback(ctx.app, stranger.code, stranger.signingSecret!, {
        event: 'data.deleted',
        noticeId: late.idempotencyKey,
      });
      expect(wrong.statusCode).toBe(404);
      const forged = await signedCallback(ctx.app, code, 'not-the-secret', {
        event: 'data.deleted',
        noticeId: late.idempotencyKey,
      });
      expect(forged.statusCode).toBe(401);
      for (let i = 0; i < 2; i++) {
        const cb = await signedCallback(ctx.app, code, SECRETS.get(code)!, {
          event: 'data.deleted',
          noticeId: late.idempotencyKey,
        });
        expect(cb.statusCode, cb.body).toBe(200);
        expect(body(cb).data).toEqual({ noticeId: late.idempotencyKey, status: 'confirmed' });
      }
      const [confirmed] = await db().select().from(partnerNotices).where(eq(partnerNotices.id, late.id));
      expect(confirmed).toMatchObject({ status: 'confirmed' });
      expect(confirmed!.confirmedAt).not.toBeNull();
      const relisted = body<AdminNoticeList>(
        await get('/api/admin/privacy/deletions?status=confirmed&pageSize=100', viewerToken),
      ).data.list.find((i) => i.id === late.id)!;
      expect(relisted).toMatchObject({ overdue: false, workingDaysLeft: null });
    }

    // Only admins and operators may re-send; a confirmed notice is not re-sent.
    const anyId = notices[0]!.id;
    const denied = await post(
      ctx.app,
      `/api/admin/privacy/notices/${anyId}/retry`,
      undefined,
      auth(viewerToken),
    );
    expect(denied.statusCode).toBe(403);
    const confirmedOne = (await noticesOf(p.uid)).find((n) => n.status === 'confirmed')!;
    const refused = await post(
      ctx.app,
      `/api/admin/privacy/notices/${confirmedOne.id}/retry`,
      undefined,
      auth(opToken),
    );
    expect(refused.statusCode).toBe(400);
    const badId = await post(ctx.app, '/api/admin/privacy/notices/abc/retry', undefined, auth(opToken));
    expect(badId.statusCode).toBe(400);
    const badQuery = await get('/api/admin/privacy/deletions?status=nope', viewerToken);
    expect(badQuery.statusCode).toBe(400);
    expect(body(badQuery).code).toBe(400);
  });

  it('a notice the lender keeps refusing goes dead, and an operator puts it back', async () => {
    const p = await consentingPerson();
    await drain();
    partner.noticeScript = () => ({ status: 500 });
    await cancelAccount(p);
    await drain();
    const dead = await noticesOf(p.uid);
    expect(dead.length).toBeGreaterThan(0);
    expect(dead.every((n) => n.status === 'dead' && n.attempts === 3 && n.lastError === 'HTTP 500')).toBe(
      true,
    );

    const viewerToken = await staffToken(viewerPhone);
    const listed = body<AdminNoticeList>(
      await get('/api/admin/privacy/deletions?status=dead&pageSize=100', viewerToken),
    ).data.list.filter((i) => i.userId === p.uid);
    expect(listed.map((i) => i.id).sort()).toEqual(dead.map((n) => n.id).sort());

    partner.noticeScript = () => ({ status: 200, body: { deleted: true } });
    const opToken = await staffToken(operatorPhone);
    const res = await post(
      ctx.app,
      `/api/admin/privacy/notices/${dead[0]!.id}/retry`,
      undefined,
      auth(opToken),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(body<AdminNoticeItem>(res).data).toMatchObject({
      id: dead[0]!.id,
      status: 'pending',
      attempts: 0,
    });
    // The re-queue is in the audit log: who, which notice, from which state.
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'notice'), eq(auditLog.entityId, String(dead[0]!.id))));
    expect(entry).toMatchObject({
      action: 'retry',
      before: { status: 'dead' },
      after: { status: 'pending' },
    });
    expect(entry!.staffId).not.toBeNull();
    await drain();
    const [done] = await db()
      .select()
      .from(partnerNotices)
      .where(and(eq(partnerNotices.id, dead[0]!.id)));
    expect(done).toMatchObject({ status: 'confirmed', attempts: 1 });
  });

  it('cancelling stops pending leads: nothing is sent, no deletion needed for them', async () => {
    const p = await consentingPerson();
    await cancelAccount(p);
    await drain();
    const rows = await db()
      .select()
      .from(leads)
      .where(
        inArray(
          leads.id,
          p.leads.map((l) => l.id),
        ),
      );
    expect(rows.every((l) => l.status === 'withdrawn')).toBe(true);
    for (const l of p.leads) expect(partner.requests.some((r) => r.key === l.key)).toBe(false);
    expect(await noticesOf(p.uid)).toHaveLength(0);
  });
});

describe(`dev partner sandbox takes notices (${BACKEND})`, () => {
  it('a deletion request deletes the sandbox’s copies and answers {deleted:true}', async () => {
    const sandbox = await createTestApp({ env: { PARTNER_SANDBOX: 'on', DELIVERY_BACKOFF_BASE_MS: '10' } });
    try {
      const { app } = sandbox;
      const { token, phone } = await loginAs(app);
      await consentToApiOffers(app, token);
      // The lenders deliver to the sandbox on this app, listening on a free port.
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address() as { port: number };
      for (const d of DEMO_PARTNERS) {
        await app.database.db
          .update(partners)
          .set({ apiEndpoint: `http://127.0.0.1:${address.port}/api/dev/partner-sandbox/${d.code}/leads` })
          .where(eq(partners.code, d.code));
      }
      await app.services.delivery.drain();
      const codes = [
        ...new Set(
          (
            await app.database.db
              .select({ code: partners.code })
              .from(leads)
              .innerJoin(partners, eq(leads.partnerId, partners.id))
              .where(eq(leads.status, 'delivered'))
          ).map((x) => x.code),
        ),
      ];
      expect(codes.length).toBeGreaterThan(0);
      const held = async () => {
        let n = 0;
        for (const code of codes) {
          n += body<unknown[]>(await app.inject({ url: `/api/dev/partner-sandbox/${code}/leads` })).data
            .length;
        }
        return n;
      };
      expect(await held()).toBeGreaterThan(0);

      expect(body(await sendCancellationCode(app, token)).code).toBe(200);
      const code = await latestCode(app, phone);
      expect(body(await post(app, '/api/cancellation', { code }, auth(token))).code).toBe(200);
      await app.services.delivery.drain();
      const notices = await app.database.db.select().from(partnerNotices);
      expect(notices.length).toBe(codes.length);
      expect(notices.every((n) => n.status === 'confirmed' && n.confirmedAt !== null)).toBe(true);
      expect(await held()).toBe(0);
    } finally {
      await sandbox.close();
    }
  });
});
