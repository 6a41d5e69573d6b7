import type { AuditEntry } from '@lm/shared/schemas/admin';
import type {
  AdminLeadDetail,
  AdminLeadList,
  AdminRevealData,
  AdminUserDetail,
  AdminUserList,
  DeliverySummaryData,
  RetryDeadData,
} from '@lm/shared/schemas/admin-leads';
import { and, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, leads, partners } from '../src/db/schema.ts';
import { consentToApiOffers, FORM } from './fixtures.ts';
import { BACKEND, body, loginAs, newPhone, staffLogin, type TestStaffRole, useTestApp } from './helpers.ts';
import { deliverAll, pointLendersAt, useLocalPartner } from './lenders.ts';

const PASSWORD = 'correct horse battery';

const logLines: string[] = [];
const tokens: Record<'admin' | 'operator' | 'viewer' | 'partner', string> = {
  admin: '',
  operator: '',
  viewer: '',
  partner: '',
};
const staffIds: Record<string, number> = {};

const staffAs = (role: TestStaffRole, name: string) =>
  staffLogin(ctx.app, role, { name, password: PASSWORD });

const partner = useLocalPartner();
const ctx = useTestApp(() => ({
  env: {
    PARTNER_TEST_ORIGINS: partner.url,
    LOG_LEVEL: 'trace',
    DELIVERY_TIMEOUT_MS: '3000',
    DELIVERY_BACKOFF_BASE_MS: '10',
    DELIVERY_BACKOFF_MAX_MS: '40',
    DELIVERY_MAX_ATTEMPTS: '2',
    PARTNER_SANDBOX: 'on',
  },
  logStream: { write: (line: string) => void logLines.push(line) },
}));
beforeAll(async () => {
  await pointLendersAt(ctx.app, partner.url);
  for (const [key, role, name] of [
    ['admin', 'admin', '管理员甲'],
    ['operator', 'operator', '运营乙'],
    ['viewer', 'viewer', '只读丙'],
    ['partner', 'channel_partner', '渠道丁'],
  ] as const) {
    const s = await staffAs(role, name);
    tokens[key] = s.token;
    staffIds[key] = s.id;
  }
});

const db = () => ctx.app.database.db;
const get = (url: string, token = tokens.operator) =>
  ctx.app.inject({ method: 'GET', url, headers: { accesstoken: token } });
const postAs = (url: string, payload: unknown, token = tokens.operator) =>
  ctx.app.inject({ method: 'POST', url, payload: payload as object, headers: { accesstoken: token } });

/** A person who saves the sample form and consents to every API lender offered. */
async function person() {
  const { token, uid, phone } = await loginAs(ctx.app, newPhone(), { adChannelCode: 'demo' });
  const { offers, auth } = await consentToApiOffers(ctx.app, token);
  expect(offers.length, 'the sample form matches at least one API lender').toBeGreaterThan(0);
  expect(auth.statusCode, auth.body).toBe(200);
  const rows = await db().select({ id: leads.id }).from(leads).where(eq(leads.userId, uid));
  return { token, uid, phone, leadIds: rows.map((x) => x.id) };
}

/** A person whose leads all went to the dead letters (the lender answered 503 every time). */
async function personWithDeadLeads() {
  partner.script = () => ({ status: 503 });
  const p = await person();
  await deliverAll(ctx.app, p.leadIds, { pauseMs: 10 });
  partner.script = () => ({ status: 200 });
  const rows = await db().select().from(leads).where(inArray(leads.id, p.leadIds));
  expect(rows.every((l) => l.status === 'dead')).toBe(true);
  return { ...p, leads: rows };
}

describe(`console: people and reveals (${BACKEND})`, () => {
  it('finds a person by the full phone through the blind index and shows everything masked', async () => {
    const p = await person();
    const other = await person();
    const found = await get(`/api/admin/users?phone=${p.phone}`);
    expect(found.statusCode, found.body).toBe(200);
    const list = body<AdminUserList>(found).data;
    expect(list.total).toBe(1);
    expect(list.list[0]).toMatchObject({
      id: p.uid,
      phoneMasked: `${p.phone.slice(0, 3)}****${p.phone.slice(7)}`,
      channelCode: 'demo',
      status: 'active',
      formSubmitted: true,
      consents: p.leadIds.length,
      leads: { pending: p.leadIds.length },
    });
    expect(found.body).not.toContain(p.phone);
    expect(list.list.some((u) => u.id === other.uid)).toBe(false);

    // A partial phone is refused (no LIKE on ciphertext); an unknown full phone finds nobody.
    const partial = await get(`/api/admin/users?phone=${p.phone.slice(0, 7)}`);
    expect(partial.statusCode).toBe(400);
    expect(body(partial).msg).toContain('11 位');
    expect(body<AdminUserList>(await get(`/api/admin/users?phone=${newPhone()}`)).data.total).toBe(0);

    const detail = await get(`/api/admin/users/${p.uid}`);
    expect(detail.statusCode, detail.body).toBe(200);
    const d = body<AdminUserDetail>(detail).data;
    expect(d.draft).toMatchObject({ realNameMasked: '张*', identityMasked: '1101**********4514' });
    expect(d.draft!.answers).toMatchObject({ workCity: '深圳市', applyLimit: 2 });
    expect(d.draft!.answers).not.toHaveProperty('realName');
    expect(d.runs).toHaveLength(1);
    expect(d.runs[0]!.offers.length).toBeGreaterThanOrEqual(p.leadIds.length);
    expect(d.runs[0]!.excludedCount).toBe(d.runs[0]!.excluded.length);
    expect(d.consents).toHaveLength(p.leadIds.length);
    expect(d.consents[0]!.textHash).toBeTruthy();
    expect(d.leads.map((l) => l.id).sort()).toEqual([...p.leadIds].sort());
    expect(d.sessions[0]!.ip).toMatch(/^\d+\.\d+\.\*\.\*$/);
    for (const clear of [p.phone, FORM.realName, FORM.identity]) expect(detail.body).not.toContain(clear);

    // Leads list: masked too.
    const leadList = await get(`/api/admin/leads?userId=${p.uid}`);
    expect(body<AdminLeadList>(leadList).data.total).toBe(p.leadIds.length);
    expect(leadList.body).not.toContain(p.phone);
  });

  it('answers 404 for unknown people and leads, and refuses callers without a staff login', async () => {
    expect((await get('/api/admin/users/987654321')).statusCode).toBe(404);
    expect((await get('/api/admin/leads/987654321')).statusCode).toBe(404);
    expect(
      (await postAs('/api/admin/users/987654321/reveal', { field: 'mobile', reason: '核实用户投诉' }))
        .statusCode,
    ).toBe(404);
    const { token } = await loginAs(ctx.app);
    // A person's own token is not a staff login.
    expect((await get('/api/admin/users', token)).statusCode).toBe(401);
    expect((await get('/api/admin/users', 'nonsense')).statusCode).toBe(401);
    // A channel partner sees only funnel figures.
    expect((await get('/api/admin/users', tokens.partner)).statusCode).toBe(403);
    expect((await get('/api/admin/audit-log', tokens.partner)).statusCode).toBe(403);
  });

  it('reveals a field only with a reason, audit-logs the reason without the value, never logs it', async () => {
    const p = await person();
    const url = `/api/admin/users/${p.uid}/reveal`;
    const noReason = await postAs(url, { field: 'realName' });
    expect(noReason.statusCode).toBe(400);
    const shortReason = await postAs(url, { field: 'realName', reason: '看' });
    expect(shortReason.statusCode).toBe(400);
    expect(body(shortReason).msg).toContain('查看原因');
    const viewer = await postAs(url, { field: 'realName', reason: '核实用户投诉' }, tokens.viewer);
    expect(viewer.statusCode).toBe(403);
    const before = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, String(p.uid)));
    expect(before).toHaveLength(0);

    const name = await postAs(url, { field: 'realName', reason: '核实用户投诉 #1024' });
    expect(name.statusCode, name.body).toBe(200);
    expect(body<AdminRevealData>(name).data).toEqual({ field: 'realName', value: '张三', contacts: null });
    expect(name.headers['cache-control']).toBe('no-store');
    const id = await postAs(url, { field: 'identity', reason: '核实用户投诉 #1024' }, tokens.admin);
    expect(body<AdminRevealData>(id).data.value).toBe(FORM.identity);
    const mobile = await postAs(url, { field: 'mobile', reason: '回访用户' });
    expect(body<AdminRevealData>(mobile).data.value).toBe(p.phone);
    // No credit information saved: nothing to reveal, nothing logged.
    expect((await postAs(url, { field: 'contacts', reason: '回访用户' })).statusCode).toBe(404);

    const rows = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'user'), eq(auditLog.entityId, String(p.uid))))
      .orderBy(auditLog.id);
    expect(rows.map((r) => [r.action, r.after, r.reason, r.staffId, r.staffName])).toEqual([
      ['reveal', { field: 'realName' }, '核实用户投诉 #1024', staffIds.operator, '运营乙'],
      ['reveal', { field: 'identity' }, '核实用户投诉 #1024', staffIds.admin, '管理员甲'],
      ['reveal', { field: 'mobile' }, '回访用户', staffIds.operator, '运营乙'],
    ]);
    const stored = JSON.stringify(rows);
    for (const clear of [p.phone, FORM.realName, FORM.identity]) {
      expect(stored).not.toContain(clear);
      expect(logLines.join('\n')).not.toContain(clear);
    }
    // The audit-log call shows it to any staff member, viewers included.
    const log = await get(`/api/admin/audit-log?entity=user&entityId=${p.uid}&action=reveal`, tokens.viewer);
    const entries = body<{ total: number; list: AuditEntry[] }>(log).data;
    expect(entries.total).toBe(3);
    expect(entries.list[0]).toMatchObject({ reason: '回访用户', after: { field: 'mobile' } });
  });

  it('limits reveals per staff member per hour', async () => {
    const p = await person();
    const s = await staffAs('operator', '运营限流');
    for (let i = 0; i < 30; i++) {
      const res = await postAs(
        `/api/admin/users/${p.uid}/reveal`,
        { field: 'realName', reason: '批量核对资料' },
        s.token,
      );
      expect(res.statusCode, res.body).toBe(200);
    }
    const refused = await postAs(
      `/api/admin/users/${p.uid}/reveal`,
      { field: 'realName', reason: '批量核对资料' },
      s.token,
    );
    expect(refused.statusCode).toBe(429);
    expect(body(refused).msg).toContain('查看个人信息过于频繁');
    // Another staff member is not affected.
    expect(
      (await postAs(`/api/admin/users/${p.uid}/reveal`, { field: 'realName', reason: '核实用户投诉' }))
        .statusCode,
    ).toBe(200);
  });
});

describe(`console: dead letters (${BACKEND})`, () => {
  it('retry puts a dead lead back in the queue and the worker delivers it; viewers get 403', async () => {
    const p = await personWithDeadLeads();
    const [lead] = p.leads;
    const viewer = await postAs(`/api/admin/leads/${lead!.id}/retry`, {}, tokens.viewer);
    expect(viewer.statusCode).toBe(403);

    const detailBefore = body<AdminLeadDetail>(await get(`/api/admin/leads/${lead!.id}`)).data;
    expect(detailBefore).toMatchObject({
      status: 'dead',
      attempts: 2,
      retryable: true,
      lastError: 'HTTP 503',
    });
    expect(detailBefore.attemptList.map((a) => [a.attempt, a.outcome])).toEqual([
      [1, 'retry'],
      [2, 'dead'],
    ]);
    // An operator sees the outcome and the status; why it failed is for administrators (ADR 019).
    expect(detailBefore.attemptList[1]).toMatchObject({ httpStatus: 503, error: null });
    const asAdmin = body<AdminLeadDetail>(await get(`/api/admin/leads/${lead!.id}`, tokens.admin)).data;
    expect(asAdmin.attemptList[1]).toMatchObject({ httpStatus: 503, error: 'HTTP 503' });
    // The partner's answer ({"error":"try later"}) is stored nowhere and shown to nobody.
    for (const d of [detailBefore, asAdmin]) {
      expect(JSON.stringify(d.attemptList)).not.toContain('try later');
      expect(d.attemptList[1]).not.toHaveProperty('response');
    }

    const res = await postAs(`/api/admin/leads/${lead!.id}/retry`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(body<AdminLeadDetail>(res).data).toMatchObject({
      status: 'pending',
      attempts: 0,
      lastError: null,
    });
    const again = await postAs(`/api/admin/leads/${lead!.id}/retry`, {});
    expect(again.statusCode).toBe(400);
    expect(body(again).msg).toContain('只有发送失败');

    await deliverAll(ctx.app, [lead!.id], { pauseMs: 10 });
    const after = body<AdminLeadDetail>(await get(`/api/admin/leads/${lead!.id}`)).data;
    expect(after).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(after.attemptList.map((a) => a.outcome)).toEqual(['retry', 'dead', 'delivered']);
    expect(partner.accepted.has(after.idempotencyKey)).toBe(true);

    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'lead'), eq(auditLog.entityId, String(lead!.id))));
    expect(entry).toMatchObject({
      action: 'retry',
      staffId: staffIds.operator,
      before: { status: 'dead', attempts: 2, lastError: 'HTTP 503' },
      after: { status: 'pending', attempts: 0, lastError: null },
    });
  });

  it('discard stops a dead lead forever, with a reason; viewers get 403', async () => {
    const p = await personWithDeadLeads();
    const [lead] = p.leads;
    expect(
      (await postAs(`/api/admin/leads/${lead!.id}/discard`, { reason: '机构已下线' }, tokens.viewer))
        .statusCode,
    ).toBe(403);
    expect((await postAs(`/api/admin/leads/${lead!.id}/discard`, {})).statusCode).toBe(400);
    const res = await postAs(`/api/admin/leads/${lead!.id}/discard`, { reason: '机构已下线，不再接收' });
    expect(res.statusCode, res.body).toBe(200);
    expect(body<AdminLeadDetail>(res).data).toMatchObject({ status: 'discarded', retryable: false });

    // Neither the worker nor a retry sends it again.
    const sentBefore = partner.requests.filter((r) => r.key === lead!.idempotencyKey).length;
    await ctx.app.services.delivery.runOnce();
    expect((await postAs(`/api/admin/leads/${lead!.id}/retry`, {})).statusCode).toBe(400);
    expect((await postAs('/api/admin/leads/retry-dead', { partnerId: lead!.partnerId })).statusCode).toBe(
      200,
    );
    await ctx.app.services.delivery.runOnce();
    expect(partner.requests.filter((r) => r.key === lead!.idempotencyKey)).toHaveLength(sentBefore);
    const [row] = await db().select().from(leads).where(eq(leads.id, lead!.id));
    expect(row!.status).toBe('discarded');
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'discard'), eq(auditLog.entityId, String(lead!.id))));
    expect(entry).toMatchObject({ reason: '机构已下线，不再接收', after: { status: 'discarded' } });
  });

  it('never re-sends a dead lead whose consent was withdrawn; bulk retry skips it', async () => {
    const p = await personWithDeadLeads();
    const [withdrawn, ...rest] = p.leads;
    const w = await ctx.app.inject({
      method: 'POST',
      url: '/api/user/data-sharing/withdraw',
      payload: { partnerId: withdrawn!.partnerId },
      headers: { accesstoken: p.token },
    });
    expect(w.statusCode, w.body).toBe(200);
    const refused = await postAs(`/api/admin/leads/${withdrawn!.id}/retry`, {});
    expect(refused.statusCode).toBe(400);
    expect(body(refused).msg).toContain('撤回授权');
    expect(body<AdminLeadDetail>(await get(`/api/admin/leads/${withdrawn!.id}`)).data.retryable).toBe(false);

    expect(
      (await postAs('/api/admin/leads/retry-dead', { partnerId: withdrawn!.partnerId }, tokens.viewer))
        .statusCode,
    ).toBe(403);
    expect((await postAs('/api/admin/leads/retry-dead', { partnerId: 987654 })).statusCode).toBe(404);
    const bulk = await postAs('/api/admin/leads/retry-dead', { partnerId: withdrawn!.partnerId });
    expect(bulk.statusCode, bulk.body).toBe(200);
    const r = body<RetryDeadData>(bulk).data;
    expect(r.skipped).toBeGreaterThanOrEqual(1);
    expect(r.remaining).toBe(0);
    const [still] = await db().select().from(leads).where(eq(leads.id, withdrawn!.id));
    expect(still!.status).toBe('dead');
    // The same person's other lenders are untouched by this partner's bulk retry.
    for (const l of rest.filter((x) => x.partnerId !== withdrawn!.partnerId)) {
      const [row] = await db().select().from(leads).where(eq(leads.id, l.id));
      expect(row!.status).toBe('dead');
    }
  });

  it('bulk retry puts every dead lead of a partner back and audit-logs each', async () => {
    const a = await personWithDeadLeads();
    const b = await personWithDeadLeads();
    const partnerId = a.leads[0]!.partnerId;
    const mine = [...a.leads, ...b.leads].filter((l) => l.partnerId === partnerId).map((l) => l.id);
    expect(mine.length).toBeGreaterThanOrEqual(2);
    const res = await postAs('/api/admin/leads/retry-dead', { partnerId }, tokens.admin);
    const data = body<RetryDeadData>(res).data;
    expect(data.retried).toBeGreaterThanOrEqual(mine.length);
    const rows = await db().select().from(leads).where(inArray(leads.id, mine));
    expect(rows.every((l) => l.status === 'pending' && l.attempts === 0)).toBe(true);
    const entries = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'retry'), inArray(auditLog.entityId, mine.map(String))));
    expect(entries).toHaveLength(mine.length);
    expect(entries.every((e) => e.staffId === staffIds.admin)).toBe(true);
    await deliverAll(ctx.app, mine, { pauseMs: 10 });
    const done = await db().select().from(leads).where(inArray(leads.id, mine));
    expect(done.every((l) => l.status === 'delivered')).toBe(true);
  });
});

describe(`console: delivery summary and audit log (${BACKEND})`, () => {
  it('summary counts per partner match the leads', async () => {
    await personWithDeadLeads();
    await person(); // pending, due now
    const res = await get('/api/admin/deliveries/summary', tokens.viewer);
    expect(res.statusCode, res.body).toBe(200);
    const summary = body<DeliverySummaryData>(res).data;
    const all = await db().select().from(leads);
    const partnerRows = await db().select().from(partners);
    expect(summary.list).toHaveLength(partnerRows.length);
    const now = Date.now();
    for (const item of summary.list) {
      const mine = all.filter((l) => l.partnerId === item.partnerId);
      const n = (s: string) => mine.filter((l) => l.status === s).length;
      expect(item.pending).toBe(n('pending'));
      expect(item.dead).toBe(n('dead'));
      expect(item.discarded).toBe(n('discarded'));
      expect(item.awaitingCallback).toBe(n('awaiting_callback'));
      expect(item.dueNow).toBe(
        mine.filter(
          (l) =>
            l.status === 'pending' &&
            l.nextAttemptAt.getTime() <= now &&
            (!l.lockedUntil || l.lockedUntil.getTime() <= now),
        ).length,
      );
      expect(item.deliveredToday).toBe(n('delivered'));
      if (n('pending') > 0) {
        const oldest = Math.min(
          ...mine.filter((l) => l.status === 'pending').map((l) => l.createdAt.getTime()),
        );
        expect(item.oldestPendingAt).toBe(new Date(oldest).toISOString());
        expect(item.oldestPendingAgeSeconds).toBeGreaterThanOrEqual(0);
      } else {
        expect(item.oldestPendingAt).toBeNull();
      }
      if (n('dead') > 0) expect(item.lastAttempt).not.toBeNull();
    }
    // Partners with dead letters come first.
    const deadCounts = summary.list.map((i) => i.dead);
    expect(deadCounts).toEqual([...deadCounts].sort((x, y) => y - x));
  });

  it('filters and pages the audit log; sorts by time; rejects unknown sort fields', async () => {
    const p = await person();
    for (const reason of ['第一次核对', '第二次核对', '第三次核对']) {
      await postAs(`/api/admin/users/${p.uid}/reveal`, { field: 'realName', reason }, tokens.admin);
    }
    const base = `/api/admin/audit-log?entity=user&entityId=${p.uid}`;
    const page1 = body<{ total: number; page: number; list: AuditEntry[] }>(
      await get(`${base}&pageSize=2`),
    ).data;
    expect(page1.total).toBe(3);
    expect(page1.list.map((e) => e.reason)).toEqual(['第三次核对', '第二次核对']);
    const page2 = body<{ list: AuditEntry[] }>(await get(`${base}&pageSize=2&page=2`)).data;
    expect(page2.list.map((e) => e.reason)).toEqual(['第一次核对']);
    const asc = body<{ list: AuditEntry[] }>(await get(`${base}&order=asc&sort=createdAt`)).data;
    expect(asc.list.map((e) => e.reason)).toEqual(['第一次核对', '第二次核对', '第三次核对']);

    const byStaff = body<{ total: number; list: AuditEntry[] }>(
      await get(`/api/admin/audit-log?staffId=${staffIds.admin}&entity=user&entityId=${p.uid}`),
    ).data;
    expect(byStaff.total).toBe(3);
    expect(
      body<{ total: number }>(
        await get(`/api/admin/audit-log?staffId=${staffIds.viewer}&entity=user&entityId=${p.uid}`),
      ).data.total,
    ).toBe(0);
    expect(body<{ total: number }>(await get(`${base}&action=discard`)).data.total).toBe(0);

    const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    expect(body<{ total: number }>(await get(`${base}&from=${today}&to=${today}`)).data.total).toBe(3);
    expect(body<{ total: number }>(await get(`${base}&from=2099-01-01`)).data.total).toBe(0);
    expect(body<{ total: number }>(await get(`${base}&to=2000-01-01`)).data.total).toBe(0);
    expect((await get(`${base}&from=2026-13-40`)).statusCode).toBe(400);
    expect((await get(`${base}&sort=reason`)).statusCode).toBe(400);

    const facets = body<{ staff: { id: number; name: string }[]; actions: string[]; entities: string[] }>(
      await get('/api/admin/audit-log/facets', tokens.viewer),
    ).data;
    expect(facets.staff).toContainEqual({ id: staffIds.admin, name: '管理员甲' });
    expect(facets.actions).toContain('reveal');
    expect(facets.entities).toContain('user');
  });

  it('pages and sorts the people and leads lists and validates their filters', async () => {
    await person();
    await person();
    const page = body<AdminUserList>(
      await get('/api/admin/users?pageSize=1&page=2&sort=createdAt&order=asc'),
    ).data;
    expect(page.pageSize).toBe(1);
    expect(page.list).toHaveLength(1);
    expect(page.total).toBeGreaterThanOrEqual(2);
    const all = body<AdminUserList>(await get('/api/admin/users?pageSize=200&sort=createdAt&order=asc')).data;
    expect(page.list[0]!.id).toBe(all.list[1]!.id);
    expect(
      body<AdminUserList>(await get('/api/admin/users?userInfoStatus=2&pageSize=200')).data.list.every(
        (u) => u.userInfoStatus === 2,
      ),
    ).toBe(true);
    expect((await get('/api/admin/users?sort=mobile')).statusCode).toBe(400);

    const byAttempts = body<AdminLeadList>(
      await get('/api/admin/leads?sort=attempts&order=desc&pageSize=200'),
    ).data;
    const counts = byAttempts.list.map((l) => l.attempts);
    expect(counts).toEqual([...counts].sort((x, y) => y - x));
    const pendingOnly = body<AdminLeadList>(await get('/api/admin/leads?status=pending&pageSize=200')).data;
    expect(pendingOnly.list.every((l) => l.status === 'pending')).toBe(true);
    const demo = body<AdminLeadList>(await get('/api/admin/leads?channelCode=demo&pageSize=1')).data;
    expect(demo.total).toBeGreaterThan(0);
    expect(body<AdminLeadList>(await get('/api/admin/leads?channelCode=nowhere')).data.total).toBe(0);
    expect((await get('/api/admin/leads?status=lost')).statusCode).toBe(400);
    expect((await get('/api/admin/leads?sort=partnerRef')).statusCode).toBe(400);
  });
});
