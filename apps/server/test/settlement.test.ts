/**
 * Issue 48.5 (and the adjustments and payouts of 48.3): monthly statements from the ledger, one statement with
 * its entries, the month close (admin; ended months only; once), later events of a closed month booked in the
 * next open month while the closed statement stays as it was, CSV export, roles (operator reads, viewer without
 * amounts, channel partner its own channels only), and the append-only trigger.
 */
import {
  AUDIT_ACTION_LABELS,
  AUDIT_ENTITY_LABELS,
  auditFieldLabel,
  auditValueText,
} from '@lm/shared/audit-labels';
import { shanghaiMonthOf } from '@lm/shared/money';
import type { StatementDetailData, StatementsData } from '@lm/shared/schemas/settlement';
import { shanghaiDayStart } from '@lm/shared/time';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, channels, ledgerEntries, partners } from '../src/db/schema.ts';
import { nextMonth, previousMonth } from '../src/modules/ledger/rules.ts';
import { BACKEND, body, createTestApp, staffLogin, type TestContext } from './helpers.ts';

type Role = 'admin' | 'operator' | 'viewer' | 'channel_partner';

let ctx: TestContext;
const tokens = {} as Record<Role, string>;
const db = () => ctx.app.database.db;

const current = shanghaiMonthOf(new Date());
const past = previousMonth(current);
const pastDay = (d: number) =>
  new Date(shanghaiDayStart(`${past}-${String(d).padStart(2, '0')}`).getTime() + 3_600_000);

let lender = { id: 0, code: '', name: '' };
let other = { id: 0, code: '' };
let chA = 0;
let chB = 0;

function call(role: Role, method: 'GET' | 'POST', url: string, payload?: object) {
  return ctx.app.inject({
    method,
    url,
    headers: { accesstoken: tokens[role] },
    ...(payload ? { payload } : {}),
  });
}

async function statements(role: Role, month: string): Promise<StatementsData> {
  const res = await call(role, 'GET', `/api/admin/settlement/statements?month=${month}`);
  expect(res.statusCode, res.body).toBe(200);
  return body<StatementsData>(res).data;
}

async function detail(role: Role, type: string, code: string, month: string): Promise<StatementDetailData> {
  const res = await call(role, 'GET', `/api/admin/settlement/statements/${type}/${code}?month=${month}`);
  expect(res.statusCode, res.body).toBe(200);
  return body<StatementDetailData>(res).data;
}

const of = (data: StatementsData, type: string, code: string) =>
  data.statements.find((s) => s.party.type === type && s.party.code === code);

let seq = 0;
function revenue(model: 'cpl' | 'cpa' | 'cps', amountFen: number, eventAt: Date, channelCode: string | null) {
  seq++;
  return {
    kind: 'lead_revenue' as const,
    partyType: 'lender' as const,
    partyId: lender.id,
    partyCode: lender.code,
    eventAt,
    amountFen,
    reference: `test:${seq}:${model}`,
    model,
    quantity: 1,
    channelCode,
  };
}

beforeAll(async () => {
  ctx = await createTestApp();
  tokens.admin = (await staffLogin(ctx.app, 'admin', { name: '结算管理员' })).token;
  tokens.operator = (await staffLogin(ctx.app, 'operator')).token;
  tokens.viewer = (await staffLogin(ctx.app, 'viewer')).token;
  tokens.channel_partner = (await staffLogin(ctx.app, 'channel_partner', { channelCodes: ['set-a'] })).token;
  const rows = await db()
    .select({ id: partners.id, code: partners.code, name: partners.legalName })
    .from(partners)
    .orderBy(asc(partners.id))
    .limit(2);
  expect(rows.length, 'the demo lenders are seeded').toBe(2);
  lender = rows[0]!;
  other = rows[1]!;
  const [a] = await db()
    .insert(channels)
    .values({ adChannelCode: 'set-a', name: '结算渠道甲' })
    .returning({ id: channels.id });
  const [b] = await db()
    .insert(channels)
    .values({ adChannelCode: 'set-b', name: '结算渠道乙' })
    .returning({ id: channels.id });
  chA = a!.id;
  chB = b!.id;

  const ledger = ctx.app.services.ledger;
  // Last month: two delivered leads from set-a (35 元 each), one approval (100 元), one lead returned,
  // set-a's cost, an adjustment on the lender; the other lender one lead.
  await ledger.post([
    revenue('cpl', 3_500, pastDay(3), 'set-a'),
    revenue('cpl', 3_500, pastDay(4), 'set-a'),
    revenue('cpa', 10_000, pastDay(5), 'set-a'),
    {
      kind: 'return',
      partyType: 'lender',
      partyId: lender.id,
      partyCode: lender.code,
      eventAt: pastDay(6),
      amountFen: -3_500,
      reference: 'test:return:1',
      model: 'cpl',
      channelCode: 'set-a',
    },
    {
      kind: 'channel_cost',
      partyType: 'channel',
      partyId: chA,
      partyCode: 'set-a',
      eventAt: pastDay(7),
      amountFen: 800,
      reference: 'test:cost:1',
      model: 'cpc',
      quantity: 16,
    },
    {
      kind: 'adjustment',
      partyType: 'lender',
      partyId: lender.id,
      partyCode: lender.code,
      eventAt: pastDay(8),
      amountFen: -100,
      reference: 'test:adjustment:1',
      reason: '测试调整',
    },
    {
      kind: 'lead_revenue',
      partyType: 'lender',
      partyId: other.id,
      partyCode: other.code,
      eventAt: pastDay(9),
      amountFen: 2_000,
      reference: 'test:other:cpl',
      model: 'cpl',
      channelCode: 'set-b',
    },
  ]);
  // This month: one more lead, set-b's cost.
  await ledger.post([
    revenue('cpl', 4_000, new Date(), 'set-a'),
    {
      kind: 'channel_cost',
      partyType: 'channel',
      partyId: chB,
      partyCode: 'set-b',
      eventAt: new Date(),
      amountFen: 300,
      reference: 'test:cost:2',
      model: 'cpc',
      quantity: 6,
    },
  ]);
});
afterAll(async () => ctx?.close());

describe(`settlement statements (${BACKEND})`, () => {
  it('last month: per lender and per channel the counts and sums of its entries; open and closable', async () => {
    const data = await statements('admin', past);
    expect(data).toMatchObject({
      month: past,
      status: 'open',
      currentMonth: current,
      closable: true,
      amountsShown: true,
    });
    expect(data).not.toHaveProperty('closedAt');
    expect(of(data, 'lender', lender.code)).toMatchObject({
      party: { type: 'lender', id: lender.id, code: lender.code, name: lender.name },
      leads: 2,
      returned: 1,
      approved: 1,
      funded: 0,
      entries: 5,
      lateEntries: 0,
      revenueFen: 17_000,
      returnedFen: 3_500,
      costFen: 0,
      adjustmentFen: -100,
      payoutFen: 0,
      netFen: 13_400,
      status: 'open',
    });
    expect(of(data, 'lender', other.code)).toMatchObject({ leads: 1, netFen: 2_000 });
    // A channel: the people it brought (counts, no lender money) and its own cost.
    expect(of(data, 'channel', 'set-a')).toMatchObject({
      party: { type: 'channel', id: chA, code: 'set-a', name: '结算渠道甲' },
      leads: 2,
      approved: 1,
      returned: 1,
      clicks: 0,
      registrations: 0,
      revenueFen: 0,
      costFen: 800,
      netFen: 800,
    });
    // Lenders come first; set-b has no entry of its own last month (only its people's lead at a lender).
    expect(data.statements.map((s) => `${s.party.type}:${s.party.code}`)).toEqual([
      ...[lender.code, other.code].sort().map((c) => `lender:${c}`),
      'channel:set-a',
    ]);
    // The sums of all statements equal the sum of all entries of the month.
    const [{ total } = { total: 0 }] = await db()
      .select({ total: sql<number>`coalesce(sum(${ledgerEntries.amountFen}), 0)::bigint` })
      .from(ledgerEntries)
      .where(eq(ledgerEntries.month, past));
    expect(data.statements.reduce((a, s) => a + (s.netFen ?? 0), 0)).toBe(Number(total));
  });

  it('this month: its own entries; not closable', async () => {
    const data = await statements('operator', current);
    expect(data).toMatchObject({ status: 'open', closable: false });
    expect(of(data, 'lender', lender.code)).toMatchObject({ leads: 1, netFen: 4_000 });
    expect(of(data, 'channel', 'set-b')).toMatchObject({ costFen: 300, netFen: 300 });
    expect(of(data, 'lender', other.code)).toBeUndefined();
  });

  it('one statement with its entries and the issuer; an unknown party is 404 in words', async () => {
    const d = await detail('operator', 'lender', lender.code, past);
    expect(d.issuerName.length).toBeGreaterThan(1);
    expect(d.statement).toMatchObject({ netFen: 13_400, entries: 5 });
    expect(d.entries).toHaveLength(5);
    expect(d.entries.reduce((a, e) => a + (e.amountFen ?? 0), 0)).toBe(13_400);
    expect(d.entries.map((e) => e.kindLabel)).toEqual([
      '线索收入',
      '线索收入',
      '线索收入',
      '退回冲减',
      '手工调整',
    ]);
    expect(d.entries.every((e) => e.late === false && e.eventMonth === past)).toBe(true);
    const adj = d.entries.find((e) => e.kind === 'adjustment');
    expect(adj).toMatchObject({ reason: '测试调整', amountFen: -100 });

    const ch = await detail('admin', 'channel', 'set-a', past);
    expect(ch.statement).toMatchObject({ leads: 2, costFen: 800, netFen: 800 });
    expect(ch.entries.map((e) => e.reference)).toEqual(['test:cost:1']);

    const res = await call('admin', 'GET', `/api/admin/settlement/statements/lender/nope?month=${past}`);
    expect(res.statusCode).toBe(404);
    expect(body(res).msg).toMatch(/机构 nope 不存在/);
    const bad = await call('admin', 'GET', '/api/admin/settlement/statements?month=2026-13');
    expect(bad.statusCode).toBe(400);
    const missing = await call('admin', 'GET', '/api/admin/settlement/statements');
    expect(missing.statusCode).toBe(400);
  });

  it('CSV: BOM, Chinese headers, yuan amounts, a download that is not stored', async () => {
    const res = await call('admin', 'GET', `/api/admin/settlement/statements.csv?month=${past}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv; charset=utf-8/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(decodeURIComponent(String(res.headers['content-disposition']))).toContain(`对账单-${past}.csv`);
    expect(res.body.startsWith('\uFEFF类型,编码,名称,状态')).toBe(true);
    expect(res.body).toContain('净额（元）');
    expect(res.body).toContain(`机构,${lender.code},`);
    expect(res.body).toMatch(/,170\.00,35\.00,0\.00,-1\.00,0\.00,134\.00\r\n/);
    expect(res.body).toContain('渠道,set-a,结算渠道甲,未关账');

    const viewer = await call('viewer', 'GET', `/api/admin/settlement/statements.csv?month=${past}`);
    expect(viewer.statusCode).toBe(200);
    expect(viewer.body).not.toContain('元');
    expect(viewer.body).not.toContain('134.00');

    const partner = await call(
      'channel_partner',
      'GET',
      `/api/admin/settlement/statements.csv?month=${past}`,
    );
    expect(partner.statusCode).toBe(200);
    const lines = partner.body.trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^渠道,set-a,/);
  });

  it('a viewer reads every statement without any amount field', async () => {
    const data = await statements('viewer', past);
    expect(data.amountsShown).toBe(false);
    for (const s of data.statements)
      for (const k of ['revenueFen', 'returnedFen', 'costFen', 'adjustmentFen', 'payoutFen', 'netFen'])
        expect(s, `${s.party.code}.${k}`).not.toHaveProperty(k);
    expect(of(data, 'lender', lender.code)).toMatchObject({ leads: 2, returned: 1 });
    const d = await detail('viewer', 'lender', lender.code, past);
    expect(d.statement).not.toHaveProperty('netFen');
    for (const e of d.entries) {
      expect(e).not.toHaveProperty('amountFen');
      expect(e).not.toHaveProperty('basisFen');
    }
  });

  it('a channel partner sees its own channel only, never a lender', async () => {
    const data = await statements('channel_partner', past);
    expect(data.statements.map((s) => `${s.party.type}:${s.party.code}`)).toEqual(['channel:set-a']);
    expect(data.statements[0]).toMatchObject({ costFen: 800, netFen: 800 });
    const own = await detail('channel_partner', 'channel', 'set-a', past);
    expect(own.entries).toHaveLength(1);
    const lenderRes = await call(
      'channel_partner',
      'GET',
      `/api/admin/settlement/statements/lender/${lender.code}?month=${past}`,
    );
    expect(lenderRes.statusCode).toBe(403);
    expect(body(lenderRes).msg).toMatch(/不能查看机构的对账单/);
    const foreign = await call(
      'channel_partner',
      'GET',
      `/api/admin/settlement/statements/channel/set-b?month=${past}`,
    );
    expect(foreign.statusCode).toBe(403);
    for (const [url, payload] of [
      [`/api/admin/settlement/months/${past}/close`, undefined],
      [
        '/api/admin/settlement/adjustments',
        { partyType: 'channel', partyCode: 'set-a', amountFen: 100, reason: '自己加钱' },
      ],
      [
        '/api/admin/settlement/payouts',
        { partyType: 'channel', partyCode: 'set-a', amountFen: 100, note: '自己付款' },
      ],
    ] as const) {
      const res = await call('channel_partner', 'POST', url, payload);
      expect(res.statusCode, url).toBe(403);
    }
  });

  it('adjustments and payouts: admin only, validated, audited', async () => {
    const adjust = (role: Role, payload: object) =>
      call(role, 'POST', '/api/admin/settlement/adjustments', payload);
    const good = { partyType: 'lender', partyCode: lender.code, amountFen: -250, reason: '线索质量补偿' };
    expect((await adjust('operator', good)).statusCode).toBe(403);
    expect((await adjust('viewer', good)).statusCode).toBe(403);
    for (const bad of [
      { ...good, amountFen: 0 },
      { ...good, amountFen: 1.5 },
      { ...good, amountFen: 1_000_000_000_001 },
      { ...good, reason: '短' },
      { ...good, partyType: 'bank' },
      { ...good, month: '2026-1' },
      { ...good, month: nextMonth(current) },
    ]) {
      const res = await adjust('admin', bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(body(res).msg.length).toBeGreaterThan(2);
    }
    expect((await adjust('admin', { ...good, partyCode: 'nope' })).statusCode).toBe(404);
    const ok = await adjust('admin', good);
    expect(ok.statusCode, ok.body).toBe(200);
    const booked = body<{ id: number; month: string; amountFen: number; reference: string }>(ok).data;
    expect(booked).toMatchObject({ month: current, amountFen: -250, kind: 'adjustment' });
    expect(booked.reference).toMatch(/^adjustment:[0-9a-f-]{36}$/);
    const [row] = await db().select().from(ledgerEntries).where(eq(ledgerEntries.id, booked.id));
    expect(row).toMatchObject({ reason: '线索质量补偿', partyId: lender.id });
    expect(row!.staffId).not.toBeNull();

    const pay = await call('admin', 'POST', '/api/admin/settlement/payouts', {
      partyType: 'channel',
      partyCode: 'set-b',
      amountFen: 300,
      note: '11 月渠道结算',
    });
    expect(pay.statusCode, pay.body).toBe(200);
    expect(body<{ amountFen: number; kind: string }>(pay).data).toMatchObject({
      kind: 'payout',
      amountFen: -300,
    });
    const zero = await call('admin', 'POST', '/api/admin/settlement/payouts', {
      partyType: 'channel',
      partyCode: 'set-b',
      amountFen: -5,
      note: '负数付款',
    });
    expect(zero.statusCode).toBe(400);

    const now = await statements('admin', current);
    expect(of(now, 'channel', 'set-b')).toMatchObject({ costFen: 300, payoutFen: 300, netFen: 0 });
    expect(of(now, 'lender', lender.code)).toMatchObject({ adjustmentFen: -250, netFen: 3_750 });
  });

  it('closing: admin only, only a month that has ended, once; audited', async () => {
    const close = (role: Role, month: string) =>
      call(role, 'POST', `/api/admin/settlement/months/${month}/close`);
    expect((await close('operator', past)).statusCode).toBe(403);
    expect((await close('viewer', past)).statusCode).toBe(403);
    const now = await close('admin', current);
    expect(now.statusCode).toBe(400);
    expect(body(now).msg).toMatch(/本月/);
    expect((await close('admin', nextMonth(current))).statusCode).toBe(400);
    expect((await close('admin', '2026-00')).statusCode).toBe(400);

    const before = await statements('admin', past);
    const res = await close('admin', past);
    expect(res.statusCode, res.body).toBe(200);
    expect(body(res).data).toMatchObject({ month: past, status: 'closed', closedByName: '结算管理员' });
    const again = await close('admin', past);
    expect(again.statusCode).toBe(409);
    expect(body(again).msg).toMatch(/已经关账/);

    const after = await statements('operator', past);
    expect(after).toMatchObject({ status: 'closed', closable: false, closedByName: '结算管理员' });
    expect(after.statements.map((s) => ({ ...s, status: 'open' }))).toEqual(before.statements);

    const [audit] = await db().select().from(auditLog).where(eq(auditLog.entity, 'month_close'));
    expect(audit).toMatchObject({ action: 'close', entityId: past, staffName: '结算管理员' });
  });

  it('after the close a late event of that month lands in the next open month; the closed one never changes', async () => {
    const before = await statements('admin', past);
    const [row] = await ctx.app.services.ledger.post([revenue('cpl', 5_000, pastDay(20), 'set-a')]);
    expect(row!.month).toBe(current);
    const after = await statements('admin', past);
    expect(after).toEqual(before);
    const d = await detail('admin', 'lender', lender.code, current);
    const late = d.entries.find((e) => e.id === row!.id);
    expect(late).toMatchObject({ late: true, eventMonth: past, amountFen: 5_000 });
    expect(d.statement.lateEntries).toBe(1);
    // An adjustment into the closed month is refused in words.
    const res = await call('admin', 'POST', '/api/admin/settlement/adjustments', {
      partyType: 'lender',
      partyCode: lender.code,
      amountFen: 100,
      reason: '补记上月',
      month: past,
    });
    expect(res.statusCode).toBe(409);
    expect(body(res).msg).toMatch(/已关账/);
  });

  it('the audit entries read in words', async () => {
    const rows = await db().select().from(auditLog);
    const mine = rows.filter((r) => ['month_close', 'ledger_adjustment', 'ledger_payout'].includes(r.entity));
    expect(new Set(mine.map((r) => r.entity))).toEqual(
      new Set(['month_close', 'ledger_adjustment', 'ledger_payout']),
    );
    for (const r of mine) {
      expect(AUDIT_ENTITY_LABELS[r.entity], r.entity).toBeDefined();
      expect(AUDIT_ACTION_LABELS[r.action], r.action).toBeDefined();
      for (const [k, v] of Object.entries(r.after ?? {})) {
        expect(auditFieldLabel(r.entity, k), `${r.entity}.${k}`).not.toBe(k);
        expect(auditValueText(r.entity, k, v)).not.toMatch(/[{}"]|\d{4}-\d{2}-\d{2}T/);
      }
    }
    const adj = mine.find((r) => r.entity === 'ledger_adjustment')!;
    expect(auditValueText('ledger_adjustment', 'amountFen', adj.after!.amountFen)).toMatch(/2\.50/);
    expect(auditValueText('ledger_adjustment', 'partyType', 'lender')).toBe('机构');
  });

  it('the ledger refuses UPDATE and DELETE (append-only trigger)', async () => {
    const refusal = async (q: Promise<unknown>) => {
      const err = await q.then(
        () => null,
        (e: Error & { cause?: Error }) => e,
      );
      return `${err?.message ?? ''} ${err?.cause?.message ?? ''}`;
    };
    expect(await refusal(db().execute(sql`update ledger_entries set amount_fen = 0`))).toMatch(
      /append-only: UPDATE refused/,
    );
    expect(await refusal(db().execute(sql`delete from ledger_entries`))).toMatch(
      /append-only: DELETE refused/,
    );
    const [{ n } = { n: 0 }] = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(ledgerEntries)
      .where(eq(ledgerEntries.amountFen, 0));
    expect(Number(n)).toBe(0);
  });
});
