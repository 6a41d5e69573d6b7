/**
 * Issue 47.6: the funnel's 授信 and 放款 steps. Real people log in on a channel, consent to the lenders
 * offered (the H5 reports 授权 signed in), and the sandbox lender reports outcomes through the signed API
 * (`POST /api/dev/partner-sandbox/{code}/outcomes`) — the funnel, its trend, the channel rows, the A/B arms and
 * the dashboard count the persons, in the cohort of the day, channel and skin they authorised on.
 */
import { randomBytes } from 'node:crypto';
import { shanghaiDate } from '@lm/shared/time';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { channels, events, leads, partners } from '../src/db/schema.ts';
import { consentToApiOffers } from './fixtures.ts';
import { BACKEND, body, loginAs, newIp, newPhone, staffLogin, useTestApp } from './helpers.ts';

const ctx = useTestApp({ env: { PARTNER_SANDBOX: 'on' } });
let app: FastifyInstance;
const tag = randomBytes(3).toString('hex');
/** This file's channels: C where the people come from, Q a quiet one. */
const C = `fo-${tag}`;
const Q = `fq-${tag}`;
const today = shanghaiDate();
const range = `from=${today}&to=${today}`;
const tokens = { operator: '', partner: '', otherPartner: '' };

beforeAll(async () => {
  app = ctx.app;
  await app.database.db.insert(channels).values([
    { adChannelCode: C, name: '授信渠道', flags: 'skin17' },
    { adChannelCode: Q, name: '安静渠道', flags: 'skin17' },
  ]);
  tokens.operator = (await staffLogin(app, 'operator')).token;
  tokens.partner = (await staffLogin(app, 'channel_partner', { channelCodes: [C] })).token;
  tokens.otherPartner = (await staffLogin(app, 'channel_partner', { channelCodes: [Q] })).token;
});

const get = (url: string, token = tokens.operator) => app.inject({ url, headers: { accesstoken: token } });

/**
 * A person from channel C: logs in, saves the form, consents to every API lender offered, and the H5 reports
 * 授权 with the person's token (as it does right after the consent). Their leads, each with its lender's code.
 */
async function personWhoAuthorised(skin = 17) {
  const { token, uid } = await loginAs(app, newPhone(), { adChannelCode: C, abTestType: skin });
  const { auth } = await consentToApiOffers(app, token);
  expect(auth.statusCode, auth.body).toBe(200);
  const res = await app.inject({
    method: 'POST',
    url: '/api/report/event',
    headers: { accesstoken: token },
    payload: {
      step: 'authorize',
      sessionId: `s_${randomBytes(8).toString('hex')}`,
      adChannelCode: C,
      skin,
      fingerprint: `fp-${uid}`,
      source: 'H5',
    },
    remoteAddress: newIp(),
  });
  expect(body<{ recorded: boolean }>(res).data.recorded).toBe(true);
  const mine = await app.database.db
    .select({ key: leads.idempotencyKey, partnerCode: partners.code })
    .from(leads)
    .innerJoin(partners, eq(partners.id, leads.partnerId))
    .where(eq(leads.userId, uid));
  return { uid, leads: mine };
}

async function outcome(lead: { key: string; partnerCode: string }, payload: object) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/dev/partner-sandbox/${lead.partnerCode}/outcomes`,
    payload: { leadId: lead.key, ...payload },
  });
  expect(res.statusCode, res.body).toBe(200);
}

interface Row {
  step: string;
  label: string;
  count: number;
  sessions: number;
  fromPrevious: number | null;
  fromFirst: number | null;
}

async function funnelOf(query: string, token = tokens.operator) {
  const res = await get(`/api/admin/funnel?${query}`, token);
  expect(res.statusCode, res.body).toBe(200);
  const steps = body<{ steps: Row[] }>(res).data.steps;
  return (step: string) => steps.find((r) => r.step === step)!;
}

async function dashboard() {
  const data = body<{
    figures: { key: string; today: number; counts: string; hint: string }[];
    trend: { day: string; credits: number; loans: number }[];
  }>(await get('/api/admin/dashboard')).data;
  const fig = (key: string) => data.figures.find((f) => f.key === key)!;
  return { fig, last: data.trend.at(-1)! };
}

describe(`funnel: 授信 and 放款 (issue 47.6) (${BACKEND})`, () => {
  it('a lead approved, then funded by two lenders, moves the funnel one person at a time; a decline does not', async () => {
    const before = await dashboard();
    const one = await personWhoAuthorised();
    // Two lenders at least, so that one person can be funded twice.
    const lenders = new Set(one.leads.map((l) => l.partnerCode));
    expect(lenders.size, JSON.stringify(one.leads)).toBeGreaterThanOrEqual(2);
    const [first, second] = [
      one.leads[0]!,
      one.leads.find((l) => l.partnerCode !== one.leads[0]!.partnerCode)!,
    ];
    const two = await personWhoAuthorised();

    let step = await funnelOf(`channelCode=${C}&${range}`);
    expect(step('authorize').count).toBe(2);
    expect(step('credit')).toMatchObject({ label: '授信', count: 0, sessions: 0 });
    expect(step('loan')).toMatchObject({ label: '放款', count: 0 });

    // The first lender approves person one: 授信 1 of 2 authorisations.
    await outcome(first, { status: 'approved', limitFen: 2_000_000 });
    step = await funnelOf(`channelCode=${C}&${range}`);
    expect(step('credit')).toMatchObject({ count: 1, sessions: 1, fromPrevious: 0.5 });
    expect(step('loan').count).toBe(0);

    // Both lenders fund person one (one of them without an approval first): still one person at each step.
    await outcome(first, { status: 'funded', amountFen: 1_500_000, termMonths: 12 });
    await outcome(second, { status: 'funded', amountFen: 800_000, termMonths: 6 });
    // Person two is declined: no 授信.
    await outcome(two.leads[0]!, { status: 'declined', reason: '资质不符' });
    step = await funnelOf(`channelCode=${C}&${range}`);
    expect(step('credit')).toMatchObject({ count: 1, fromPrevious: 0.5 });
    expect(step('loan')).toMatchObject({ count: 1, fromPrevious: 1 });
    expect(step('loan').fromFirst).toBeNull(); // nobody clicked in this file: no first-step base

    // Person two's other lender approves: 授信 2; approved, then declined by that lender: back to 1.
    const other = two.leads.find((l) => l.partnerCode !== two.leads[0]!.partnerCode)!;
    await outcome(other, { status: 'approved', limitFen: 500_000 });
    expect((await funnelOf(`channelCode=${C}&${range}`))('credit').count).toBe(2);
    await outcome(other, { status: 'declined', reason: '复审未通过' });
    expect((await funnelOf(`channelCode=${C}&${range}`))('credit').count).toBe(1);

    // The trend, the channel rows and the A/B arms carry the same persons.
    const trend = body<{ steps: { step: string }[]; days: { day: string; counts: number[] }[] }>(
      await get(`/api/admin/funnel/trend?channelCode=${C}&${range}`),
    ).data;
    const at = (s: string) => trend.steps.findIndex((x) => x.step === s);
    expect(trend.days.at(-1)!.counts[at('credit')]).toBe(1);
    expect(trend.days.at(-1)!.counts[at('loan')]).toBe(1);
    const rows = body<{ list: Record<string, unknown>[] }>(
      await get(`/api/admin/funnel/by-channel?channelCodes=${C},${Q}&${range}&sort=loans`),
    ).data.list;
    expect(rows.map((r) => [r.adChannelCode, r.authorizations, r.credits, r.loans])).toEqual([
      [C, 2, 1, 1],
      [Q, 0, 0, 0],
    ]);
    const arms = body<{ arms: { skin: number; steps: { step: string; count: number }[] }[] }>(
      await get(`/api/admin/funnel/arms?channelCode=${C}&${range}`),
    ).data.arms;
    const skin17 = arms.find((a) => a.skin === 17)!;
    expect(skin17.steps.find((s) => s.step === 'credit')!.count).toBe(1);
    expect(skin17.steps.find((s) => s.step === 'loan')!.count).toBe(1);

    // Another skin, another channel: nobody.
    expect((await funnelOf(`channelCode=${C}&${range}&skin=9`))('credit').count).toBe(0);
    expect((await funnelOf(`channelCode=${Q}&${range}`))('loan').count).toBe(0);

    // The dashboard counts the same persons today, in its figures and its trend.
    const after = await dashboard();
    expect(after.fig('credits').today - before.fig('credits').today).toBe(1);
    expect(after.fig('loans').today - before.fig('loans').today).toBe(1);
    expect(after.fig('credits')).toMatchObject({ counts: 'people' });
    expect(after.fig('loans').hint).toContain('授权当天');
    expect(after.last.credits).toBe(after.fig('credits').today);
    expect(after.last.loans).toBe(after.fig('loans').today);
  });

  it('an outcome counts on the day of the authorisation, not the day the lender answered', async () => {
    const late = await personWhoAuthorised();
    const yesterday = new Date(Date.parse(`${today}T12:00:00+08:00`) - 86_400_000);
    const day = shanghaiDate(yesterday);
    // This person consented and authorised yesterday; the lender funds the loan today.
    await app.database.db.update(leads).set({ createdAt: yesterday }).where(eq(leads.userId, late.uid));
    await app.database.db.update(events).set({ day }).where(eq(events.userId, late.uid));
    await outcome(late.leads[0]!, { status: 'funded', amountFen: 300_000 });

    const onTheDay = await funnelOf(`channelCode=${C}&from=${day}&to=${day}`);
    expect(onTheDay('authorize').count).toBe(1);
    expect(onTheDay('credit').count).toBe(1);
    expect(onTheDay('loan').count).toBe(1);
    // Today's funnel is unchanged by yesterday's person.
    expect((await funnelOf(`channelCode=${C}&${range}`))('loan').count).toBe(1);
  });

  it('a channel partner sees its own channel’s 授信 and 放款, exactly as staff do, and no other', async () => {
    const staff = await funnelOf(`channelCode=${C}&${range}`);
    const own = await funnelOf(range, tokens.partner);
    expect(own('credit')).toEqual(staff('credit'));
    expect(own('loan')).toEqual(staff('loan'));
    expect(own('loan').count).toBe(1);
    const other = await funnelOf(range, tokens.otherPartner);
    expect([other('credit').count, other('loan').count]).toEqual([0, 0]);
    const refused = await get(`/api/admin/funnel?channelCode=${C}&${range}`, tokens.otherPartner);
    expect(refused.statusCode).toBe(403);
  });
});
