/**
 * Issue 47.4: a lender's reconciliation file (its own list of our leads and the status it has for each) read by
 * `POST /api/admin/partners/{id}/outcomes/reconcile` and compared with what the lender reported: each kind of
 * disagreement in words, the totals, the run audited, nothing written to the outcomes.
 */
import type { ReconcileData } from '@lm/shared/schemas/reconcile';
import { shanghaiDate } from '@lm/shared/time';
import { and, count, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, leadOutcomes, leads, partners } from '../src/db/schema.ts';
import { consentToApiOffers } from './fixtures.ts';
import { BACKEND, body, loginAs, newIp, staffLogin, useTestApp } from './helpers.ts';

const ctx = useTestApp({ env: { PARTNER_SANDBOX: 'on' } });
let app: FastifyInstance;
let operator = '';
let viewer = '';
/** One lender's leads (of four people) and another lender's lead. */
let partner: { id: number; code: string };
let keys: string[] = [];
let otherLenderKey = '';

beforeAll(async () => {
  app = ctx.app;
  await app.listen({ port: 0, host: '127.0.0.1' });
  // The lenders take their leads at the sandbox of this app, on the port it listens on.
  const { port } = app.server.address() as { port: number };
  for (const p of await app.database.db.select({ code: partners.code }).from(partners))
    await app.database.db
      .update(partners)
      .set({
        apiEndpoint: `http://127.0.0.1:${port}/api/dev/partner-sandbox/${p.code}/leads`,
        dupCheckEndpoint: null,
      })
      .where(eq(partners.code, p.code));
  app.services.matching.invalidateCatalog();
  operator = (await staffLogin(app, 'operator', { name: '对账运营' })).token;
  viewer = (await staffLogin(app, 'viewer')).token;
  const mine: { key: string; partnerId: number; code: string }[][] = [];
  for (let i = 0; i < 4; i++) {
    const { token, uid } = await loginAs(app);
    const { auth } = await consentToApiOffers(app, token);
    expect(auth.statusCode, auth.body).toBe(200);
    mine.push(
      await app.database.db
        .select({ key: leads.idempotencyKey, partnerId: leads.partnerId, code: partners.code })
        .from(leads)
        .innerJoin(partners, eq(partners.id, leads.partnerId))
        .where(eq(leads.userId, uid)),
    );
  }
  await app.services.delivery.drain();
  const first = mine[0]![0]!;
  partner = { id: first.partnerId, code: first.code };
  keys = mine.map((rows) => rows.find((r) => r.partnerId === partner.id)!.key);
  otherLenderKey = mine[0]!.find((r) => r.partnerId !== partner.id)!.key;
  const [delivered] = await app.database.db
    .select({ n: count() })
    .from(leads)
    .where(and(eq(leads.partnerId, partner.id), eq(leads.status, 'delivered')));
  expect(delivered!.n).toBeGreaterThanOrEqual(4);

  // What the lender reported: 0 approved (20 000 元), 1 funded (12 345.67 元), 2 nothing, 3 declined.
  const report = async (payload: object) => {
    const res = await app.inject({
      method: 'POST',
      url: `/api/dev/partner-sandbox/${partner.code}/outcomes`,
      payload,
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  await report({ leadId: keys[0], status: 'approved', limitFen: 2_000_000 });
  await report({ leadId: keys[1], status: 'approved', limitFen: 5_000_000 });
  await report({ leadId: keys[1], status: 'funded', amountFen: 1_234_567 });
  await report({ leadId: keys[3], status: 'declined', reason: '资质不符' });
});

const reconcileCall = (payload: object, token = operator, id: number = partner.id) =>
  app.inject({
    method: 'POST',
    url: `/api/admin/partners/${id}/outcomes/reconcile`,
    headers: { accesstoken: token },
    remoteAddress: newIp(),
    payload,
  });

async function outcomeRows() {
  const [row] = await app.database.db.select({ n: count() }).from(leadOutcomes);
  const states = await app.database.db
    .select({ key: leads.idempotencyKey, outcome: leads.outcome })
    .from(leads);
  return { n: row!.n, states };
}

describe(`reconciliation of a lender's outcomes (issue 47.4) (${BACKEND})`, () => {
  it('lists each disagreement in words with both sides, the totals, and writes nothing but the audit entry', async () => {
    const before = await outcomeRows();
    const csv = [
      '\uFEFF线索编号,状态,金额（元）,发生时间',
      `${keys[0]},已授信,"20,000.00",2026-03-01 10:00`, // agrees
      `${keys[1]},funded,12345.60,`, // amount differs
      `${keys[2]},已放款,8000,`, // status differs: nothing reported to us
      'no-such-lead,申请中,,', // unknown
      `${otherLenderKey},approved,100,`, // another lender's lead: unknown too
      `${keys[0]},declined,,`, // repeated: a bad row
      ',funded,1,', // no lead: a bad row
      // keys[3] (declined, reported) is left out: missing
    ].join('\r\n');
    const res = await reconcileCall({ csv });
    expect(res.statusCode, res.body).toBe(200);
    const data = body<ReconcileData>(res).data;
    expect(data).toMatchObject({
      partnerId: partner.id,
      partnerCode: partner.code,
      period: null,
      truncated: false,
    });
    expect(data.totals).toEqual({
      rows: 7,
      matched: 1,
      disagreements: 7,
      unknownLead: 2,
      statusDiffers: 1,
      amountDiffers: 1,
      missingInFile: 1,
      badRows: 2,
    });
    const byLine = (line: number | null, leadId?: string) =>
      data.disagreements.find((d) => d.line === line && (leadId === undefined || d.leadId === leadId));
    expect(byLine(3)).toMatchObject({
      kind: 'amount_differs',
      leadId: keys[1],
      theirs: { status: 'funded', amountFen: 1_234_560 },
      ours: { status: 'funded', amountFen: 1_234_567 },
      text: '放款金额：机构为 12,345.60 元，我方为 12,345.67 元',
    });
    expect(byLine(4)).toMatchObject({
      kind: 'status_differs',
      leadId: keys[2],
      theirs: { statusText: '已放款', status: 'funded', amountFen: 800_000 },
      ours: { status: null, amountFen: null },
      text: '机构为「已放款」，我方为「申请中（机构尚未反馈）」',
    });
    expect(byLine(4)!.userId).toEqual(expect.any(Number));
    expect(byLine(5)).toMatchObject({
      kind: 'unknown_lead',
      leadId: 'no-such-lead',
      ours: null,
      userId: null,
    });
    expect(byLine(6)).toMatchObject({
      kind: 'unknown_lead',
      leadId: otherLenderKey,
      ours: null,
      userId: null,
    });
    expect(byLine(7)).toMatchObject({
      kind: 'bad_row',
      text: `第 7 行无法读取：线索 ${keys[0]} 在第 2 行已出现`,
    });
    expect(byLine(8)).toMatchObject({
      kind: 'bad_row',
      leadId: null,
      text: '第 8 行无法读取：缺少线索编号 leadId',
    });
    expect(byLine(null)).toMatchObject({
      kind: 'missing_in_file',
      leadId: keys[3],
      theirs: null,
      ours: { status: 'declined' },
      text: expect.stringMatching(
        /^我方记录为「已拒绝」（\d{4}-\d{2}-\d{2} \d{2}:\d{2} 推送），机构文件中没有这条线索$/,
      ),
    });
    // Nothing written to the outcomes.
    expect(await outcomeRows()).toEqual(before);

    // The run is audited: who, which lender, the counts.
    const [entry] = await app.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'reconcile'), eq(auditLog.entityId, String(partner.id))));
    expect(entry).toMatchObject({
      staffName: '对账运营',
      entity: 'partner',
      after: {
        periodFrom: null,
        periodTo: null,
        rowsRead: 7,
        matched: 1,
        disagreements: 7,
        missingInFile: 1,
      },
    });
  });

  it('with the delivery days the file covers, every lead delivered in them and left out is missing', async () => {
    const today = shanghaiDate(new Date());
    const res = await reconcileCall({
      csv: `leadId,status,amount\n${keys[0]},approved,20000\n${keys[1]},funded,12345.67\n`,
      from: today,
      to: today,
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = body<ReconcileData>(res).data;
    expect(data.period).toEqual({ from: today, to: today });
    expect(data.totals).toMatchObject({ rows: 2, matched: 2, badRows: 0 });
    const missing = data.disagreements.filter((d) => d.kind === 'missing_in_file').map((d) => d.leadId);
    expect(missing).toEqual(expect.arrayContaining([keys[2], keys[3]]));
    expect(missing).not.toContain(keys[0]);
    const [delivered] = await app.database.db
      .select({ n: count() })
      .from(leads)
      .where(and(eq(leads.partnerId, partner.id), eq(leads.status, 'delivered')));
    expect(data.totals.missingInFile).toBe(delivered!.n - 2);

    // Days before any delivery: nothing expected, nothing missing.
    const old = await reconcileCall({
      csv: `leadId,status\n${keys[0]},approved\n`,
      from: '2020-01-01',
      to: '2020-01-31',
    });
    expect(body<ReconcileData>(old).data.totals).toMatchObject({
      matched: 1,
      missingInFile: 0,
      disagreements: 0,
    });
  });

  it('refuses in words a file it cannot read, a bad period, another role and an unknown lender', async () => {
    let res = await reconcileCall({ csv: `${keys[0]},approved\n` });
    expect(res.statusCode).toBe(400);
    expect(body(res).msg).toContain('第一行须为表头');
    res = await reconcileCall({ csv: 'leadId,status,amountFen\nA,funded,100\n' });
    expect(res.statusCode).toBe(400);
    expect(body(res).msg).toContain('须以元为单位');
    res = await reconcileCall({ csv: 'leadId,status\n"A,funded\n' });
    expect(res.statusCode).toBe(400);
    expect(body(res).msg).toContain('引号没有闭合');
    res = await reconcileCall({ csv: '  \n' });
    expect(res.statusCode).toBe(400);
    expect(body(res).msg).toContain('对账文件是空的');
    res = await reconcileCall({ csv: 'leadId,status\n', from: '2026-03-01' });
    expect(res.statusCode).toBe(400);
    expect(body(res).msg).toContain('同时填写开始和结束日期');
    res = await reconcileCall({ csv: 'leadId,status\n', from: '2026-03-02', to: '2026-03-01' });
    expect(body(res).msg).toContain('结束日期不能早于开始日期');
    res = await reconcileCall({ csv: 'x'.repeat(1_000_001) });
    expect([400, 413]).toContain(res.statusCode);
    res = await reconcileCall({ csv: 'leadId,status\n' }, viewer);
    expect(res.statusCode).toBe(403);
    res = await reconcileCall({ csv: 'leadId,status\n' }, operator, 999_999);
    expect(res.statusCode).toBe(404);
    expect(body(res).msg).toBe('合作机构不存在');
    // A header alone: nothing read, the leads with an outcome are missing.
    res = await reconcileCall({ csv: 'leadId,status\n' });
    expect(res.statusCode).toBe(200);
    expect(body<ReconcileData>(res).data.totals).toMatchObject({ rows: 0, matched: 0, missingInFile: 3 });
  });
});
