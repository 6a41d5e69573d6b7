/**
 * Issue 48.6: ROI per channel, day and skin (GET /api/admin/roi). Real people log in on two channels and consent
 * (leads), the sandbox lender approves and funds one lead, clicks are stored as the click route stores them, and
 * money is booked with the ledger service: a channel-day's cost, an adjustment on a channel, a lead's revenue
 * with its channel code, its return, and an entry outside the period.
 */
import { randomBytes } from 'node:crypto';
import { addDays, shanghaiDate, shanghaiDayStart } from '@lm/shared/time';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { channelClicks, channels, leads, partners } from '../src/db/schema.ts';
import { consentToApiOffers } from './fixtures.ts';
import { BACKEND, body, loginAs, newPhone, staffLogin, useTestApp } from './helpers.ts';

const ctx = useTestApp({ env: { PARTNER_SANDBOX: 'on' } });
let app: FastifyInstance;
const tag = randomBytes(3).toString('hex');
/** C runs an A/B test of skins 17 (control) and 9; D has skin 8 and no test. */
const C = `roic-${tag}`;
const D = `roid-${tag}`;
const today = shanghaiDate();
const twoDaysAgo = addDays(today, -2);
const tokens = { admin: '', operator: '', viewer: '', partner: '' };
const ids = { C: 0, D: 0 };
let lead: { id: number; key: string; partnerId: number; partnerCode: string };
let cLeads = 0;
let adminId = 0;
let dLeads = 0;

type Row = Record<string, number | string | null | undefined> & { key: string };
interface Roi {
  from: string;
  to: string;
  groupBy: string;
  rows: Row[];
  totals: Record<string, number | null>;
  abTests: {
    adChannelCode: string;
    step: string;
    arms: { skin: number | null; isControl: boolean; visitors: number; test: { verdict: string } }[] &
      Record<string, unknown>[];
  }[];
  amountsShown: boolean;
}

const get = (url: string, token = tokens.admin) => app.inject({ url, headers: { accesstoken: token } });
async function roi(query: string, token = tokens.admin): Promise<Roi> {
  const res = await get(`/api/admin/roi?${query}`, token);
  expect(res.statusCode, res.body).toBe(200);
  return body<Roi>(res).data;
}

async function personOn(channel: string, skin?: number, consent = true) {
  const { token, uid } = await loginAs(app, newPhone(), {
    adChannelCode: channel,
    ...(skin === undefined ? {} : { abTestType: skin }),
  });
  if (!consent) return { uid, leads: [] };
  const { auth } = await consentToApiOffers(app, token);
  expect(auth.statusCode, auth.body).toBe(200);
  const mine = await app.database.db
    .select({
      id: leads.id,
      key: leads.idempotencyKey,
      partnerId: leads.partnerId,
      partnerCode: partners.code,
    })
    .from(leads)
    .innerJoin(partners, eq(partners.id, leads.partnerId))
    .where(eq(leads.userId, uid));
  expect(mine.length).toBeGreaterThan(0);
  return { uid, leads: mine };
}

async function outcome(l: { key: string; partnerCode: string }, payload: object) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/dev/partner-sandbox/${l.partnerCode}/outcomes`,
    payload: { leadId: l.key, ...payload },
  });
  expect(res.statusCode, res.body).toBe(200);
}

beforeAll(async () => {
  app = ctx.app;
  const made = await app.database.db
    .insert(channels)
    .values([
      {
        adChannelCode: C,
        name: '收益渠道',
        flags: 'skin17',
        skinArms: [
          { skin: 17, weight: 1 },
          { skin: 9, weight: 1 },
        ],
      },
      { adChannelCode: D, name: '成本渠道', flags: 'skin8' },
    ])
    .returning({ id: channels.id, code: channels.adChannelCode });
  ids.C = made.find((m) => m.code === C)!.id;
  ids.D = made.find((m) => m.code === D)!.id;
  const admin = await staffLogin(app, 'admin');
  tokens.admin = admin.token;
  adminId = admin.id;
  tokens.operator = (await staffLogin(app, 'operator')).token;
  tokens.viewer = (await staffLogin(app, 'viewer')).token;
  tokens.partner = (await staffLogin(app, 'channel_partner', { channelCodes: [C] })).token;

  // Clicks as the click route stores them: C 3 × skin 17, 1 × skin 9, one flagged (no device); D 2 without arm.
  const click = (code: string, fp: string | null, skin: number | null) => ({
    adChannelCode: code,
    fingerprintHash: fp,
    day: today,
    abTestType: skin,
    flagged: fp === null,
  });
  await app.database.db
    .insert(channelClicks)
    .values([
      click(C, `${tag}-1`, 17),
      click(C, `${tag}-2`, 17),
      click(C, `${tag}-3`, 17),
      click(C, `${tag}-4`, 9),
      click(C, null, 9),
      click(D, `${tag}-5`, null),
      click(D, `${tag}-6`, null),
    ]);

  // People: one on C in arm 17 who consents, one on C in arm 9 who only registers, one on D who consents.
  const one = await personOn(C, 17);
  await personOn(C, 9, false);
  const three = await personOn(D);
  cLeads = one.leads.length;
  dLeads = three.leads.length;
  lead = one.leads[0]!;
  await outcome(lead, { status: 'approved', limitFen: 2_000_000 });
  await outcome(lead, { status: 'funded', amountFen: 1_500_000, termMonths: 12 });

  const now = new Date();
  await app.services.ledger.post([
    {
      kind: 'channel_cost',
      partyType: 'channel',
      partyId: ids.C,
      partyCode: C,
      eventAt: shanghaiDayStart(today),
      amountFen: 1_001,
      reference: `test:spend:${C}:${today}`,
      model: 'spend',
    },
    {
      kind: 'channel_cost',
      partyType: 'channel',
      partyId: ids.D,
      partyCode: D,
      eventAt: now,
      amountFen: 2_000,
      reference: `test:spend:${D}:${today}`,
      model: 'spend',
    },
    {
      kind: 'adjustment',
      partyType: 'channel',
      partyId: ids.D,
      partyCode: D,
      eventAt: now,
      amountFen: 500,
      reference: `test:adjust:${D}:${today}`,
      reason: '补记投放费用',
      staffId: adminId,
    },
    {
      kind: 'lead_revenue',
      partyType: 'lender',
      partyId: lead.partnerId,
      partyCode: lead.partnerCode,
      eventAt: now,
      amountFen: 3_000,
      reference: `test:lead:${lead.id}:cpl`,
      model: 'cpl',
      leadId: lead.id,
      channelCode: C,
    },
    {
      kind: 'return',
      partyType: 'lender',
      partyId: lead.partnerId,
      partyCode: lead.partnerCode,
      eventAt: now,
      amountFen: -1_000,
      reference: `test:return:${lead.id}`,
      leadId: lead.id,
      channelCode: C,
    },
    {
      // Two days ago: outside a period of today only, inside one from two days ago.
      kind: 'channel_cost',
      partyType: 'channel',
      partyId: ids.C,
      partyCode: C,
      eventAt: shanghaiDayStart(twoDaysAgo),
      amountFen: 400,
      reference: `test:spend:${C}:${twoDaysAgo}`,
      model: 'spend',
    },
  ]);
});

describe(`ROI (issue 48.6) (${BACKEND})`, () => {
  it('per channel: volumes, ledger money by event day, margin, ROI and cost per lead', async () => {
    const data = await roi(`from=${today}&to=${today}`);
    expect(data).toMatchObject({
      from: today,
      to: today,
      groupBy: 'channel',
      amountsShown: true,
      abTests: [],
    });
    const c = data.rows.find((r) => r.key === C)!;
    // The CPL/CPA entries the delivery worker books at 0 fen (no price) change no sum.
    expect(c).toMatchObject({
      key: C,
      label: '收益渠道',
      clicks: 4,
      registrations: 2,
      leads: cLeads,
      approved: 1,
      funded: 1,
      returns: 1,
      costFen: 1_001,
      revenueFen: 3_000,
      returnedFen: 1_000,
      marginFen: 999,
      roiBps: 9_980, // 999 × 10000 / 1001 = 9980.02
      costPerLeadFen: Math.round(1_001 / cLeads),
    });
    const d = data.rows.find((r) => r.key === D)!;
    expect(d).toMatchObject({
      label: '成本渠道',
      clicks: 2,
      registrations: 1,
      leads: dLeads,
      approved: 0,
      revenueFen: 0,
      costFen: 2_500,
      marginFen: -2_500,
      roiBps: -10_000,
    });
    // Totals: integer sums of the rows, ratios computed again.
    const sum = (k: string) => data.rows.reduce((a, r) => a + Number(r[k] ?? 0), 0);
    for (const k of ['clicks', 'registrations', 'leads', 'costFen', 'revenueFen', 'returnedFen', 'marginFen'])
      expect(data.totals[k], k).toBe(sum(k));
    expect(data.totals.costPerLeadFen).toBe(Math.round(sum('costFen') / sum('leads')));

    // The entry two days ago counts when the period reaches it.
    const wider = await roi(`from=${twoDaysAgo}&to=${today}&groupBy=channel`);
    expect(wider.rows.find((r) => r.key === C)).toMatchObject({ costFen: 1_401, marginFen: 599 });
  });

  it('per day: one row per Shanghai day with money, sorted', async () => {
    const data = await roi(`from=${twoDaysAgo}&to=${today}&groupBy=day`);
    expect(data.rows.map((r) => r.key)).toEqual([twoDaysAgo, today]);
    expect(data.rows[0]).toMatchObject({ costFen: 400, clicks: 0, marginFen: -400 });
    expect(data.rows[0]).not.toHaveProperty('label');
    expect(data.rows[1]).toMatchObject({ costFen: 3_501, revenueFen: 3_000, returnedFen: 1_000, clicks: 6 });
  });

  it("per skin: cost split by the channel-day's clicks, revenue per visitor, the A/B page's significance", async () => {
    const data = await roi(`from=${today}&to=${today}&groupBy=skin`);
    const skin = (k: string) => data.rows.find((r) => r.key === k)!;
    // C's 1 001 fen over 3 + 1 clicks: 750.75 → 751, 250.25 → 250; D's 2 500 on its own skin 8.
    expect(skin('17')).toMatchObject({
      label: 'skin17',
      clicks: 3,
      registrations: 1,
      costFen: 751,
      revenueFen: 3_000,
      returnedFen: 1_000,
      revenuePerVisitorFen: 667, // 2000 / 3
    });
    expect(skin('9')).toMatchObject({ clicks: 1, registrations: 1, costFen: 250, revenuePerVisitorFen: 0 });
    expect(skin('8')).toMatchObject({ clicks: 2, registrations: 1, costFen: 2_500, leads: dLeads });
    expect(data.totals.costFen).toBe(3_501);
    expect(data.abTests).toHaveLength(1);
    const [test] = data.abTests;
    expect(test).toMatchObject({ adChannelCode: C, name: '收益渠道', step: 'authorize', stepLabel: '授权' });
    expect(test!.arms[0]).toMatchObject({
      skin: 17,
      isControl: true,
      visitors: 3,
      revenuePerVisitorFen: 667,
    });
    expect(test!.arms[1]).toMatchObject({ skin: 9, isControl: false, visitors: 1 });
    // The same verdict the A/B page shows for that step.
    const arms = body<{ arms: { skin: number; steps: { step: string; test: unknown }[] }[] }>(
      await get(`/api/admin/funnel/arms?channelCode=${C}&from=${today}&to=${today}`),
    ).data.arms;
    expect(test!.arms[1]!.test).toEqual(arms[1]!.steps.find((s) => s.step === 'authorize')!.test);
  });

  it('roles: operator sees amounts, a viewer the volumes only, a channel partner is refused', async () => {
    const op = await roi(`from=${today}&to=${today}`, tokens.operator);
    expect(op.amountsShown).toBe(true);
    expect(op.rows.find((r) => r.key === C)).toHaveProperty('revenueFen', 3_000);

    for (const groupBy of ['channel', 'skin']) {
      const v = await roi(`from=${today}&to=${today}&groupBy=${groupBy}`, tokens.viewer);
      expect(v.amountsShown).toBe(false);
      const text = JSON.stringify(v);
      expect(text).not.toMatch(/Fen"|roiBps/);
      expect(v.rows.length).toBeGreaterThan(0);
      expect(v.totals).toHaveProperty('clicks');
    }
    const v = await roi(`from=${today}&to=${today}`, tokens.viewer);
    expect(v.rows.find((r) => r.key === C)).toMatchObject({ clicks: 4, leads: cLeads, funded: 1 });

    const refused = await get(`/api/admin/roi?from=${today}&to=${today}`, tokens.partner);
    expect(refused.statusCode).toBe(403);
    const anonymous = await app.inject({ url: `/api/admin/roi?from=${today}&to=${today}` });
    expect(anonymous.statusCode).toBe(401);
  });

  it('bad queries are refused with a 400 in words', async () => {
    const cases: [string, string][] = [
      [`to=${today}`, '日期'],
      [`from=${today}&to=${twoDaysAgo}`, '结束日期不能早于开始日期'],
      [`from=${addDays(today, -366)}&to=${today}`, '日期范围最多 366 天'],
      [`from=${today}&to=${today}&groupBy=week`, '分组方式应为'],
      ['from=2025-02-30&to=2025-03-01', '日期不存在'],
      ['from=20250101&to=2025-03-01', '日期格式应为 YYYY-MM-DD'],
    ];
    for (const [q, words] of cases) {
      const res = await get(`/api/admin/roi?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(body(res).msg, q).toContain(words);
    }
    // 366 days is allowed.
    expect((await get(`/api/admin/roi?from=${addDays(today, -365)}&to=${today}`)).statusCode).toBe(200);
  });
});
