/**
 * Issue 48.2: what a channel costs — GET/POST /api/admin/channels/:id/costs (admin sets, operator reads, viewer
 * reads without amounts, channel partner refused; one model at a time; bad bodies, past days and a second row
 * on one day refused in words; audited) — and the daily poster that books per-event costs (CPC on counted
 * clicks, CPA on registrations and on leads) of ended days at the cost in force, once, in the day's month or
 * the next open one when that month is closed.
 */
import { shanghaiMonthOf } from '@lm/shared/money';
import type { ChannelCostsData } from '@lm/shared/schemas/channel-costs';
import { addDays, shanghaiDate, shanghaiDayStart } from '@lm/shared/time';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  channelClicks,
  channelCosts,
  channels,
  leads,
  ledgerEntries,
  users,
} from '../src/db/schema.ts';
import { nextMonth } from '../src/modules/ledger/rules.ts';
import { consentToApiOffers } from './fixtures.ts';
import { BACKEND, body, createTestApp, loginAs, newPhone, staffLogin, type TestContext } from './helpers.ts';

type Role = 'admin' | 'operator' | 'viewer' | 'channel_partner';

let ctx: TestContext;
const tokens = {} as Record<Role, string>;
let adminId = 0;
const today = shanghaiDate();
const yesterday = addDays(today, -1);
const db = () => ctx.app.database.db;

function call(role: Role, method: 'GET' | 'POST', url: string, payload?: object) {
  return ctx.app.inject({
    method,
    url,
    headers: { accesstoken: tokens[role] },
    ...(payload ? { payload } : {}),
  });
}

async function costs(role: Role, id: number, at?: string): Promise<ChannelCostsData> {
  const res = await call(role, 'GET', `/api/admin/channels/${id}/costs${at ? `?at=${at}` : ''}`);
  expect(res.statusCode, res.body).toBe(200);
  return body<ChannelCostsData>(res).data;
}

async function add(id: number, payload: object): Promise<ChannelCostsData> {
  const res = await call('admin', 'POST', `/api/admin/channels/${id}/costs`, payload);
  expect(res.statusCode, res.body).toBe(200);
  return body<ChannelCostsData>(res).data;
}

async function newChannel(code: string): Promise<number> {
  const [row] = await db()
    .insert(channels)
    .values({ adChannelCode: code, name: `成本测试 ${code}` })
    .returning({ id: channels.id });
  return row!.id;
}

/** A cost row from a past day (the API takes today or later only; the poster books ended days). */
async function pastCost(
  channelId: number,
  model: 'cpc' | 'cpa_register' | 'cpa_lead' | 'spend',
  day: string,
  amountFen: number | null,
) {
  const [row] = await db()
    .insert(channelCosts)
    .values({ channelId, model, amountFen, effectiveFrom: shanghaiDayStart(day) })
    .returning();
  return row!;
}

/** Noon (Shanghai) of a day. */
const noonOf = (day: string) => new Date(shanghaiDayStart(day).getTime() + 12 * 3600_000);

async function clicks(code: string, day: string, n: number, flagged = false) {
  for (let i = 0; i < n; i++)
    await db()
      .insert(channelClicks)
      .values({ adChannelCode: code, day, fingerprintHash: `${code}-${day}-${flagged}-${i}`, flagged });
}

async function registrations(code: string, day: string, n: number) {
  for (let i = 0; i < n; i++)
    await db()
      .insert(users)
      .values({ mobileMasked: '138****0000', adChannelCode: code, createdAt: noonOf(day) });
}

const entriesOf = (channelId: number) =>
  db()
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.partyType, 'channel'), eq(ledgerEntries.partyId, channelId)))
    .orderBy(asc(ledgerEntries.eventAt), asc(ledgerEntries.id));

let demoId = 0;

beforeAll(async () => {
  ctx = await createTestApp();
  const admin = await staffLogin(ctx.app, 'admin', { name: '成本管理员' });
  adminId = admin.id;
  tokens.admin = admin.token;
  tokens.operator = (await staffLogin(ctx.app, 'operator')).token;
  tokens.viewer = (await staffLogin(ctx.app, 'viewer')).token;
  tokens.channel_partner = (await staffLogin(ctx.app, 'channel_partner', { channelCodes: ['demo'] })).token;
  const [demo] = await db()
    .select({ id: channels.id })
    .from(channels)
    .where(eq(channels.adChannelCode, 'demo'));
  demoId = demo!.id;
});
afterAll(async () => ctx?.close());

describe(`channel costs (${BACKEND})`, () => {
  let channelId = 0;

  it('a channel without costs: nothing in force, an empty schedule', async () => {
    channelId = await newChannel('cost-api');
    expect(await costs('admin', channelId)).toEqual({
      channelId,
      at: today,
      today,
      inForce: null,
      list: [],
      amountsShown: true,
    });
  });

  it('admin sets CPC from today: in force at once, stored as the start of the Shanghai day, audited', async () => {
    const data = await add(channelId, { model: 'cpc', amountFen: 50, effectiveFrom: today });
    expect(data.inForce).toMatchObject({
      model: 'cpc',
      amountFen: 50,
      effectiveFrom: today,
      createdByName: '成本管理员',
    });
    expect(data.inForce).not.toHaveProperty('bps');
    const [row] = await db().select().from(channelCosts).where(eq(channelCosts.channelId, channelId));
    expect(row).toMatchObject({ model: 'cpc', amountFen: 50, bps: null, createdBy: adminId });
    expect(row!.effectiveFrom.toISOString()).toBe(shanghaiDayStart(today).toISOString());
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'channel_cost'), eq(auditLog.entityId, String(row!.id))));
    expect(entry).toMatchObject({
      action: 'create',
      staffId: adminId,
      staffName: '成本管理员',
      before: null,
    });
    expect(entry!.after).toEqual({
      channelId,
      adChannelCode: 'cost-api',
      model: 'cpc',
      amountFen: 50,
      effectiveFrom: today,
    });
  });

  it('one model at a time: a revenue share and then spend take over on their days', async () => {
    const in5 = addDays(today, 5);
    const in9 = addDays(today, 9);
    await add(channelId, { model: 'rev_share', bps: 1500, effectiveFrom: in5 });
    const after = await add(channelId, { model: 'spend', effectiveFrom: in9 });
    expect(after.inForce).toMatchObject({ model: 'cpc', amountFen: 50 });
    expect(after.list.map((c) => [c.model, c.effectiveFrom])).toEqual([
      ['spend', in9],
      ['rev_share', in5],
      ['cpc', today],
    ]);
    expect(after.list[0]).not.toHaveProperty('amountFen');
    expect(after.list[0]).not.toHaveProperty('bps');
    expect(after.list[1]).toMatchObject({ bps: 1500 });
    expect((await costs('admin', channelId, addDays(today, 4))).inForce?.model).toBe('cpc');
    expect((await costs('admin', channelId, in5)).inForce).toMatchObject({ model: 'rev_share', bps: 1500 });
    expect((await costs('admin', channelId, addDays(today, 30))).inForce?.model).toBe('spend');
    expect((await costs('admin', channelId, yesterday)).inForce).toBeNull();
  });

  it('operator reads with amounts; a viewer reads without any; a channel partner is refused', async () => {
    const op = await costs('operator', channelId);
    expect(op.amountsShown).toBe(true);
    expect(op.inForce?.amountFen).toBe(50);
    const viewer = await costs('viewer', channelId);
    expect(viewer.amountsShown).toBe(false);
    for (const c of [viewer.inForce!, ...viewer.list]) {
      expect(c).not.toHaveProperty('amountFen');
      expect(c).not.toHaveProperty('bps');
    }
    expect(viewer.list).toHaveLength(3);
    expect((await call('channel_partner', 'GET', `/api/admin/channels/${channelId}/costs`)).statusCode).toBe(
      403,
    );
    expect((await call('channel_partner', 'GET', `/api/admin/channels/${demoId}/costs`)).statusCode).toBe(
      403,
    );
  });

  it('only an admin sets a cost', async () => {
    const payload = { model: 'cpc', amountFen: 10, effectiveFrom: addDays(today, 20) };
    for (const role of ['operator', 'viewer', 'channel_partner'] as const) {
      const res = await call(role, 'POST', `/api/admin/channels/${channelId}/costs`, payload);
      expect(res.statusCode, role).toBe(403);
    }
    expect((await costs('admin', channelId)).list).toHaveLength(3);
  });

  it('bad bodies are refused in words; nothing is stored', async () => {
    const day = addDays(today, 15);
    const cases: [object, RegExp][] = [
      [{ model: 'cpc', effectiveFrom: day }, /须填写单价/],
      [{ model: 'cpa_register', amountFen: 10, bps: 5, effectiveFrom: day }, /不填分成比例/],
      [{ model: 'cpa_lead', amountFen: -1, effectiveFrom: day }, /不能为负数/],
      [{ model: 'cpa_lead', amountFen: 100_000_001, effectiveFrom: day }, /最高/],
      [{ model: 'cpc', amountFen: 1.5, effectiveFrom: day }, /整数/],
      [{ model: 'rev_share', effectiveFrom: day }, /须填写分成比例/],
      [{ model: 'rev_share', bps: 0, effectiveFrom: day }, /至少 1 个基点/],
      [{ model: 'rev_share', bps: 10_001, effectiveFrom: day }, /最高 10000/],
      [{ model: 'rev_share', bps: 100, amountFen: 5, effectiveFrom: day }, /收入分成不填单价/],
      [{ model: 'spend', amountFen: 5, effectiveFrom: day }, /按投放消耗计费不填单价/],
      [{ model: 'spend', bps: 5, effectiveFrom: day }, /不填分成比例/],
      [{ model: 'cpm', amountFen: 5, effectiveFrom: day }, /计费方式应为/],
      [{ model: 'cpc', amountFen: 5, effectiveFrom: yesterday }, /生效日期不能早于今天/],
      [{ model: 'cpc', amountFen: 5, effectiveFrom: '2026-02-30' }, /日期/],
    ];
    for (const [payload, msg] of cases) {
      const res = await call('admin', 'POST', `/api/admin/channels/${channelId}/costs`, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(body(res).msg, JSON.stringify(payload)).toMatch(msg);
    }
    expect((await costs('admin', channelId)).list).toHaveLength(3);
  });

  it('a second row of the channel on one day is refused in words, whatever its model', async () => {
    const res = await call('admin', 'POST', `/api/admin/channels/${channelId}/costs`, {
      model: 'cpa_lead',
      amountFen: 900,
      effectiveFrom: addDays(today, 5),
    });
    expect(res.statusCode).toBe(400);
    expect(body(res).msg).toBe(
      `渠道 cost-api 已有 ${addDays(today, 5)} 起生效的渠道成本；每个渠道同一天只能有一种计费方式，请选择其他生效日期`,
    );
    expect((await costs('admin', channelId)).list).toHaveLength(3);
  });

  it('an unknown channel answers 404', async () => {
    expect((await call('admin', 'GET', '/api/admin/channels/987654/costs')).statusCode).toBe(404);
    const res = await call('admin', 'POST', '/api/admin/channels/987654/costs', {
      model: 'spend',
      effectiveFrom: today,
    });
    expect(res.statusCode).toBe(404);
  });
});

describe(`the daily channel cost poster (${BACKEND})`, () => {
  const ids = { cpc: 0, reg: 0, spend: 0, old: 0 };
  const rows = { cpc: 0, cpc2: 0, reg: 0, lead: 0 };
  const twoAgo = addDays(today, -2);
  const threeAgo = addDays(today, -3);

  beforeAll(async () => {
    ids.cpc = await newChannel('cost-cpc');
    ids.reg = await newChannel('cost-reg');
    ids.spend = await newChannel('cost-spend');
    // CPC 50 fen from three days ago, 80 fen from yesterday; clicks before the first row are not costed.
    rows.cpc = (await pastCost(ids.cpc, 'cpc', threeAgo, 50)).id;
    rows.cpc2 = (await pastCost(ids.cpc, 'cpc', yesterday, 80)).id;
    await clicks('cost-cpc', addDays(today, -4), 9);
    await clicks('cost-cpc', twoAgo, 4);
    await clicks('cost-cpc', yesterday, 3);
    await clicks('cost-cpc', yesterday, 2, true); // flagged: not counted
    await clicks('cost-cpc', today, 7); // today has not ended
    // CPA per registration: 1200 fen from two days ago.
    rows.reg = (await pastCost(ids.reg, 'cpa_register', twoAgo, 1200)).id;
    await registrations('cost-reg', threeAgo, 5);
    await registrations('cost-reg', yesterday, 2);
    await registrations('cost-reg', today, 1);
    // Spend is booked by imports, never by the poster.
    await pastCost(ids.spend, 'spend', threeAgo, null);
    await clicks('cost-spend', yesterday, 5);
  });

  it('the delivery worker’s round books each ended day at the cost in force at its start', async () => {
    const booked = await ctx.app.services.delivery.runOnce();
    expect(booked).toBeGreaterThanOrEqual(3);
    const cpc = await entriesOf(ids.cpc);
    expect(
      cpc.map((e) => [e.reference, e.kind, e.model, e.quantity, e.amountFen, e.priceId, e.month]),
    ).toEqual([
      [`cpc:${ids.cpc}:${twoAgo}`, 'channel_cost', 'cpc', 4, 200, rows.cpc, twoAgo.slice(0, 7)],
      [`cpc:${ids.cpc}:${yesterday}`, 'channel_cost', 'cpc', 3, 240, rows.cpc2, yesterday.slice(0, 7)],
    ]);
    expect(cpc[1]).toMatchObject({
      partyType: 'channel',
      partyId: ids.cpc,
      partyCode: 'cost-cpc',
      channelCode: 'cost-cpc',
      leadId: null,
    });
    expect(cpc[1]!.eventAt.toISOString()).toBe(shanghaiDayStart(yesterday).toISOString());
    expect(shanghaiMonthOf(cpc[1]!.eventAt)).toBe(yesterday.slice(0, 7));

    const reg = await entriesOf(ids.reg);
    expect(reg.map((e) => [e.reference, e.model, e.quantity, e.amountFen, e.priceId])).toEqual([
      [`cpa_register:${ids.reg}:${yesterday}`, 'cpa_register', 2, 2400, rows.reg],
    ]);
    expect(await entriesOf(ids.spend)).toEqual([]);
  });

  it('leads created yesterday for the channel’s people are costed per lead', async () => {
    rows.lead = (await pastCost(demoId, 'cpa_lead', threeAgo, 3000)).id;
    const person = await loginAs(ctx.app, newPhone(), { adChannelCode: 'demo' });
    const { auth } = await consentToApiOffers(ctx.app, person.token);
    expect(auth.statusCode, auth.body).toBe(200);
    const made = await db().select({ id: leads.id }).from(leads).where(eq(leads.userId, person.uid));
    expect(made.length).toBeGreaterThan(0);
    await db()
      .update(leads)
      .set({ createdAt: noonOf(yesterday) })
      .where(
        inArray(
          leads.id,
          made.map((l) => l.id),
        ),
      );
    // The round ran less than a minute ago: an unforced one does not query.
    expect(await ctx.app.services.channelCostPoster.runOnce()).toBe(0);
    expect(await ctx.app.services.channelCostPoster.runOnce({ force: true })).toBe(1);
    const demo = await entriesOf(demoId);
    expect(demo.map((e) => [e.reference, e.model, e.quantity, e.amountFen, e.priceId])).toEqual([
      [`cpa_lead:${demoId}:${yesterday}`, 'cpa_lead', made.length, made.length * 3000, rows.lead],
    ]);
  });

  it('repeat runs book nothing more', async () => {
    const before = await db().select().from(ledgerEntries);
    expect(await ctx.app.services.channelCostPoster.runOnce({ force: true })).toBe(0);
    expect(await ctx.app.services.channelCostPoster.runOnce({ force: true })).toBe(0);
    expect(await db().select().from(ledgerEntries)).toHaveLength(before.length);
  });

  it('a day of a closed month is booked in the next open month', async () => {
    const day = addDays(today, -35); // always in an earlier month than today
    const month = day.slice(0, 7);
    ids.old = await newChannel('cost-old');
    const cost = await pastCost(ids.old, 'cpc', addDays(day, -1), 100);
    await clicks('cost-old', day, 6);
    expect(await ctx.app.services.ledger.close(month, adminId)).toBe(true);
    expect(await ctx.app.services.channelCostPoster.runOnce({ force: true })).toBe(1);
    const [entry, ...more] = await entriesOf(ids.old);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      reference: `cpc:${ids.old}:${day}`,
      quantity: 6,
      amountFen: 600,
      priceId: cost.id,
      month: nextMonth(month),
    });
    expect(shanghaiMonthOf(entry!.eventAt)).toBe(month);
  });

  it('days more than 62 days back are not looked at', async () => {
    const id = await newChannel('cost-ancient');
    await pastCost(id, 'cpc', addDays(today, -80), 10);
    await clicks('cost-ancient', addDays(today, -70), 3);
    await clicks('cost-ancient', addDays(today, -62), 1);
    await ctx.app.services.channelCostPoster.runOnce({ force: true });
    expect((await entriesOf(id)).map((e) => e.reference)).toEqual([`cpc:${id}:${addDays(today, -62)}`]);
  });
});
