/**
 * Issues 47.3 (replay) and 47.6 (seen by people): the console lists a channel's conversion reports — what was
 * reported, what waits, what failed with the platform's answer — and sends a dead one again. A report goes dead
 * for real here: the Baidu sandbox refuses a request without the channel's token, as Baidu does; once the
 * token is back, the replayed report is sent and the sandbox lists it once.
 */
import { AUDIT_ENTITY_LABELS, auditFieldLabel, auditValueText } from '@lm/shared/audit-labels';
import type { AdSandboxEventData } from '@lm/shared/schemas/ad-sandbox';
import type { AuditEntry } from '@lm/shared/schemas/admin';
import type { ConversionReportItem, ConversionReportsData } from '@lm/shared/schemas/conversion-reports';
import type { ChannelConversionsData } from '@lm/shared/schemas/conversions';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { adReports, channels } from '../src/db/schema.ts';
import { FORM, saveForm } from './fixtures.ts';
import { BACKEND, body, loginAs, newIp, newPhone, staffLogin, useTestApp } from './helpers.ts';

const ctx = useTestApp({
  env: { PARTNER_SANDBOX: 'on', DELIVERY_BACKOFF_BASE_MS: '10', DELIVERY_BACKOFF_MAX_MS: '40' },
});
let app: FastifyInstance;
const tokens = { admin: '', operator: '', viewer: '', ownPartner: '', otherPartner: '' };
let baiduChannel = 0;

beforeAll(async () => {
  app = ctx.app;
  // The worker reaches the sandboxes on this server's own address, as in development.
  await app.listen({ port: 0, host: '127.0.0.1' });
  tokens.admin = (await staffLogin(app, 'admin', { name: '回传管理员' })).token;
  tokens.operator = (await staffLogin(app, 'operator', { name: '回传运营' })).token;
  tokens.viewer = (await staffLogin(app, 'viewer')).token;
  tokens.ownPartner = (await staffLogin(app, 'channel_partner', { channelCodes: ['demo-location'] })).token;
  tokens.otherPartner = (await staffLogin(app, 'channel_partner', { channelCodes: ['demo'] })).token;
  const [row] = await app.database.db
    .select({ id: channels.id })
    .from(channels)
    .where(eq(channels.adChannelCode, 'demo-location'));
  baiduChannel = row!.id;
});

let n = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${++n}`;

const call = (method: 'GET' | 'PUT' | 'POST', url: string, token: string, payload?: object) =>
  app.inject({
    method,
    url,
    headers: { accesstoken: token },
    remoteAddress: newIp(),
    ...(payload ? { payload } : {}),
  });

async function reportsOf(channelId: number, query = '', token = tokens.admin) {
  const res = await call('GET', `/api/admin/channels/${channelId}/conversion-reports${query}`, token);
  expect(res.statusCode, res.body).toBe(200);
  return body<ConversionReportsData>(res).data;
}

/** Saves the Baidu channel's settings with its token (`null`: the token removed, reporting off). */
async function setBaiduToken(token: string | null) {
  const res = await call('GET', `/api/admin/channels/${baiduChannel}/conversions`, tokens.admin);
  const current = body<ChannelConversionsData>(res).data;
  const saved = await call('PUT', `/api/admin/channels/${baiduChannel}/conversions`, tokens.admin, {
    enabled: token !== null,
    platform: current.platform,
    windowDays: current.windowDays,
    events: current.events,
    credentials: { token: token ?? '' },
  });
  expect(saved.statusCode, saved.body).toBe(200);
}

/** A person from a Baidu ad on demo-location who submits the form: one 表单提交 report, pending. */
async function baiduLead() {
  const bdVid = unique('BDVID');
  const phone = newPhone();
  const { token, uid } = await loginAs(
    app,
    phone,
    { adChannelCode: 'demo-location' },
    { track_report: JSON.stringify({ platform: 'baidu', bd_vid: bdVid }) },
  );
  expect((await saveForm(app, token)).res.statusCode).toBe(200);
  const rows = await app.database.db.select().from(adReports).where(eq(adReports.userId, uid));
  expect(rows.map((r) => [r.step, r.status])).toEqual([['form', 'pending']]);
  return { bdVid, phone, uid, reportId: rows[0]!.id };
}

const replay = (id: number, token: string) =>
  call('POST', `/api/admin/conversion-reports/${id}/replay`, token);

describe(`a channel's conversion reports in the console, and replaying a dead one (${BACKEND})`, () => {
  it('a report the platform refused is listed dead with its answer; fixed and replayed, it is sent once', async () => {
    const lead = await baiduLead();
    // The token goes before the worker sends: Baidu's sandbox refuses a request without one, for good.
    await setBaiduToken(null);
    await app.services.delivery.drain();

    const dead = await reportsOf(baiduChannel, '?status=dead');
    expect(dead.adChannelCode).toBe('demo-location');
    const item = dead.list.find((r) => r.id === lead.reportId)!;
    expect(item).toMatchObject({
      platform: 'baidu',
      step: 'form',
      stepLabel: '表单提交',
      eventCode: '3',
      valueFen: null,
      status: 'dead',
      attempts: 1,
      sentAt: null,
      nextAttemptAt: null,
      clickRef: `…${lead.bdVid.slice(-6)}`,
    });
    // The platform's answer, as it gave it, and why it is dead.
    expect(item.answer).toContain('缺少 token');
    expect(item.lastError).toMatch(/^HTTP 400：.*缺少 token/);
    expect(dead.counts.dead).toBeGreaterThanOrEqual(1);
    expect(dead.list.every((r) => r.status === 'dead')).toBe(true);
    // Nothing personal: no phone, no person's id, not the whole click id.
    const listed = JSON.stringify(dead);
    expect(listed).not.toContain(lead.phone);
    expect(listed).not.toContain(lead.bdVid);
    expect(listed).not.toContain(FORM.realName);
    expect(Object.keys(item)).not.toContain('userId');

    // Viewers and channel partners read, they do not replay.
    for (const who of [tokens.viewer, tokens.ownPartner]) {
      const res = await replay(lead.reportId, who);
      expect(res.statusCode).toBe(403);
      expect(body(res)).toMatchObject({ code: 403, data: null });
    }

    // The cause fixed, an operator replays it: pending, attempts from zero, the last error kept until the next attempt.
    await setBaiduToken('demo-baidu-ocpc-token-fixed');
    const res = await replay(lead.reportId, tokens.operator);
    expect(res.statusCode, res.body).toBe(200);
    const replayed = body<ConversionReportItem>(res).data;
    expect(replayed).toMatchObject({ id: lead.reportId, status: 'pending', attempts: 0 });
    expect(replayed.lastError).toContain('缺少 token');
    expect(replayed.nextAttemptAt).not.toBeNull();
    // Twice is refused in words: it is waiting already.
    const again = await replay(lead.reportId, tokens.admin);
    expect(again.statusCode).toBe(400);
    expect(body(again)).toMatchObject({ code: 400, msg: '这条回传还在等待发送，无需重新回传' });

    await app.services.delivery.drain();
    const sent = (await reportsOf(baiduChannel, '?status=sent')).list.find((r) => r.id === lead.reportId)!;
    expect(sent).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
    expect(sent.answer).toContain('"status":0');
    expect(sent.sentAt).not.toBeNull();
    const events = body<AdSandboxEventData[]>(
      await app.inject({ url: `/api/dev/ad-sandbox/baidu/events?clickid=${lead.bdVid}` }),
    ).data;
    expect(events.map((e) => e.eventType)).toEqual(['3']);
    // Accepted: replaying it again is refused.
    const accepted = await replay(lead.reportId, tokens.admin);
    expect(accepted.statusCode).toBe(400);
    expect(body(accepted).msg).toBe('这条回传已被广告平台接收，不能重复回传');

    // The replay is in the audit log, in words.
    const audit = body<{ list: AuditEntry[] }>(
      await call('GET', `/api/admin/audit-log?entity=ad_report&entityId=${lead.reportId}`, tokens.admin),
    ).data.list;
    expect(audit).toHaveLength(1);
    const entry = audit[0]!;
    expect(entry).toMatchObject({ action: 'replay', entity: 'ad_report', staffName: '回传运营' });
    expect(AUDIT_ENTITY_LABELS[entry.entity]).toBe('转化回传记录');
    expect(entry.before).toMatchObject({ adChannelCode: 'demo-location', step: 'form', status: 'dead' });
    expect(entry.after).toEqual({ status: 'pending', attempts: 0 });
    const read = Object.entries(entry.before ?? {}).map(
      ([k, v]) => `${auditFieldLabel(entry.entity, k)}：${auditValueText(entry.entity, k, v)}`,
    );
    expect(read).toEqual(
      expect.arrayContaining([
        '回传步骤：表单提交',
        '回传状态：回传失败',
        '广告平台：百度营销',
        '已尝试次数：1 次',
      ]),
    );
  });

  it('counts per status, filters by status and step, newest first', async () => {
    const a = await baiduLead();
    const b = await baiduLead();
    const all = await reportsOf(baiduChannel);
    expect(all.total).toBe(Object.values(all.counts).reduce((x, y) => x + y, 0));
    expect(all.counts.pending).toBeGreaterThanOrEqual(2);
    const ids = all.list.map((r) => r.id);
    expect(ids).toEqual([...ids].sort((x, y) => y - x));
    expect(ids.slice(0, 2)).toEqual([b.reportId, a.reportId]);

    const paged = await reportsOf(baiduChannel, '?page=2&pageSize=1');
    expect(paged).toMatchObject({ page: 2, pageSize: 1, total: all.total });
    expect(paged.list.map((r) => r.id)).toEqual([a.reportId]);

    // Baidu reports no 注册 by default: none of that step, and the counts follow the step.
    const register = await reportsOf(baiduChannel, '?step=register');
    expect(register).toMatchObject({ total: 0, list: [], counts: { pending: 0, sent: 0, dead: 0, late: 0 } });
    const pending = await reportsOf(baiduChannel, '?status=pending&step=form');
    expect(pending.list.every((r) => r.status === 'pending' && r.step === 'form')).toBe(true);
    expect(pending.total).toBe(all.counts.pending);
    await app.services.delivery.drain();
  });

  it('refuses a report past the platform’s window (late: never sent), and ids of nothing', async () => {
    const lead = await baiduLead();
    // The lender calls the lead invalid 31 days after the click: past Baidu's 30-day window, the negative
    // signal is recorded late (issue 47.5), not sent.
    const later = new Date(Date.now() + 31 * 86_400_000);
    const outcome = await app.services.adReports.record({
      userId: lead.uid,
      step: 'invalid',
      reference: 'duplicate',
      now: later,
    });
    expect(outcome).toMatchObject({ queued: false, reason: 'late' });
    const lateId = (outcome as { report: { id: number } }).report.id;
    const listed = (await reportsOf(baiduChannel, '?status=late&step=invalid')).list;
    expect(listed.find((r) => r.id === lateId)).toMatchObject({
      step: 'invalid',
      stepLabel: '无效线索（负向回传）',
      status: 'late',
      attempts: 0,
      lastError: '超出平台回传时限，未回传',
    });
    const late = await replay(lateId, tokens.admin);
    expect(late.statusCode).toBe(400);
    expect(body(late).msg).toBe('这条回传已超出广告平台的回传时限，平台不再接收，不能重新回传');
    await app.services.delivery.drain();

    const none = await replay(987_654_321, tokens.admin);
    expect(none.statusCode).toBe(404);
    expect(body(none)).toMatchObject({ code: 404, msg: '回传记录不存在', data: null });
    const noChannel = await call('GET', '/api/admin/channels/987654/conversion-reports', tokens.admin);
    expect(noChannel.statusCode).toBe(404);
    expect(body(noChannel)).toMatchObject({ code: 404, msg: '渠道不存在' });
  });

  it('a channel partner reads its own channel only; viewers read every channel', async () => {
    const own = await reportsOf(baiduChannel, '', tokens.ownPartner);
    expect(own.adChannelCode).toBe('demo-location');
    expect((await reportsOf(baiduChannel, '', tokens.viewer)).total).toBe(own.total);

    const foreign = await call(
      'GET',
      `/api/admin/channels/${baiduChannel}/conversion-reports`,
      tokens.otherPartner,
    );
    expect(foreign.statusCode).toBe(403);
    expect(body(foreign)).toMatchObject({ code: 403, msg: '只能查看本账号所属渠道的回传记录', data: null });
    // A channel that does not exist reads the same to a partner: it learns nothing of other ids.
    const unknown = await call('GET', '/api/admin/channels/987654/conversion-reports', tokens.ownPartner);
    expect(unknown.statusCode).toBe(403);
    expect(body(unknown).msg).toBe('只能查看本账号所属渠道的回传记录');
  });

  it('bad queries are refused in words', async () => {
    const cases: [string, RegExp][] = [
      ['?status=lost', /回传状态只能是 pending、sent、dead、late/],
      ['?step=signup', /回传步骤只能是 register/],
      ['?pageSize=500', /每页最多 100 条/],
      ['?page=0', /页码从 1 开始/],
      ['?sort=id', /./],
    ];
    for (const [query, msg] of cases) {
      const res = await call(
        'GET',
        `/api/admin/channels/${baiduChannel}/conversion-reports${query}`,
        tokens.admin,
      );
      expect(res.statusCode, `${query}: ${res.body}`).toBe(400);
      expect(body(res).code).toBe(400);
      expect(body(res).msg, query).toMatch(msg);
    }
    const badId = await replay(0, tokens.admin);
    expect(badId.statusCode).toBe(400);
    expect(body(badId).msg).toContain('回传记录编号无效');
  });
});
