import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { shanghaiDate } from '@lm/shared/time';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { channelClicks, channels, events, sessions } from '../src/db/schema.ts';
import { addDays } from '../src/modules/funnel/rules.ts';
import {
  BACKEND,
  body,
  loginAs,
  newIp,
  newPhone,
  staffLogin,
  type TestStaffRole,
  useTestApp,
} from './helpers.ts';

const ctx = useTestApp();
let app: FastifyInstance;
const password = 'funnel test secret';
const tag = randomBytes(3).toString('hex');
/** Channels of this file only, so other data never mixes in. */
const A = `fa-${tag}`;
const B = `fb-${tag}`;
const AB = `fab-${tag}`;
/** Skin 8's channel of the re-authorisation test. */
const R = `fr-${tag}`;
const today = shanghaiDate();
const yesterday = addDays(today, -1);
const tokens: Record<'operator' | 'viewer' | 'admin' | 'partner', string> = {
  operator: '',
  viewer: '',
  admin: '',
  partner: '',
};

async function staffToken(role: TestStaffRole, channelCodes?: string[]) {
  return (
    await staffLogin(app, role, { name: `漏斗${role}`, password, ...(channelCodes ? { channelCodes } : {}) })
  ).token;
}

const get = (url: string, token: string) => app.inject({ url, headers: { accesstoken: token } });

beforeAll(async () => {
  app = ctx.app;
  await app.database.db.insert(channels).values([
    { adChannelCode: A, name: '漏斗渠道A', flags: 'skin17' },
    { adChannelCode: B, name: '漏斗渠道B', flags: 'skin8' },
    { adChannelCode: R, name: '二次授权渠道', flags: 'skin8' },
    {
      adChannelCode: AB,
      name: 'AB渠道',
      flags: 'skin17',
      skinArms: [
        { skin: 8, weight: 50 },
        { skin: 9, weight: 50 },
      ],
    },
  ]);
  tokens.operator = await staffToken('operator');
  tokens.viewer = await staffToken('viewer');
  tokens.admin = await staffToken('admin');
  tokens.partner = await staffToken('channel_partner', [A]);
});

interface StepRow {
  step: string;
  count: number;
  sessions: number;
  fromPrevious: number | null;
  fromFirst: number | null;
  dropOff: number | null;
}
const stepOf = (rows: StepRow[], step: string) => rows.find((r) => r.step === step)!;

/** A visitor on the H5, as the browser reports: the daily click, then steps once per session. */
async function journey(code: string, fingerprint: string, steps: string[], opts: { skin?: number } = {}) {
  const ip = newIp();
  const click = await app.inject({
    url: `/api/reportAdChannelClick?adChannelCode=${code}&fingerprint=${fingerprint}&abTestType=${opts.skin ?? 17}`,
    remoteAddress: ip,
  });
  expect(body(click).code).toBe(200);
  const sessionId = `s_${randomBytes(8).toString('hex')}`;
  for (const step of steps) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/report/event',
      payload: { step, sessionId, adChannelCode: code, skin: opts.skin ?? 17, fingerprint, source: 'H5' },
      remoteAddress: ip,
    });
    expect(body<{ recorded: boolean }>(res).data.recorded).toBe(true);
  }
  return sessionId;
}

describe(`funnel (${BACKEND})`, () => {
  it("a scripted journey's events appear in the funnel, step by step", async () => {
    // One visitor goes all the way to the form; a second stops after asking for a code and comes back
    // in a new session the same day (still one visitor); a third only clicks.
    await journey(A, 'fp-a-1', ['init', 'visit_landing', 'get_verification_code']);
    const { token } = await loginAs(app, newPhone(), { adChannelCode: A, abTestType: 17 });
    expect(token).toBeTruthy();
    await journey(A, 'fp-a-1', ['login', 'visit_form', 'submit_form']);
    await journey(A, 'fp-a-2', ['visit_landing', 'get_verification_code']);
    await journey(A, 'fp-a-2', ['visit_landing']);
    await journey(A, 'fp-a-3', []);
    // Another channel's visitor is not counted for A.
    await journey(B, 'fp-b-1', ['visit_landing', 'login']);

    const res = await get(`/api/admin/funnel?channelCode=${A}&from=${today}&to=${today}`, tokens.operator);
    expect(res.statusCode).toBe(200);
    const data = body<{ from: string; to: string; channelCodes: string[]; steps: StepRow[] }>(res).data;
    expect(data).toMatchObject({ from: today, to: today, channelCodes: [A], skin: null });
    expect(data.steps.map((s) => s.step)).toEqual([
      'click',
      'visit_landing',
      'get_verification_code',
      'login',
      'visit_form',
      'submit_form',
      'visit_authorization',
      'authorize',
      'credit',
      'loan',
    ]);
    // Steps not on every path sit beside the funnel, not in it (the result page also opens when nothing
    // matched: no subset of 授权).
    expect(body<{ sideSteps: { step: string }[] }>(res).data.sideSteps.map((s) => s.step)).toEqual([
      'visit_result',
      'download_app',
      'retention_popup',
      're_authorization',
      'second_match_authorization',
    ]);
    expect(stepOf(data.steps, 'click')).toMatchObject({ count: 3, fromPrevious: null, fromFirst: 1 });
    // fp-a-2 reported visit_landing in two sessions: 2 visitors, 3 sessions.
    expect(stepOf(data.steps, 'visit_landing')).toMatchObject({ count: 2, sessions: 3, dropOff: 1 });
    expect(stepOf(data.steps, 'visit_landing').fromPrevious).toBeCloseTo(2 / 3, 10);
    expect(stepOf(data.steps, 'get_verification_code')).toMatchObject({ count: 2, fromPrevious: 1 });
    expect(stepOf(data.steps, 'login')).toMatchObject({ count: 1, fromPrevious: 0.5, dropOff: 1 });
    expect(stepOf(data.steps, 'login').fromFirst).toBeCloseTo(1 / 3, 10);
    expect(stepOf(data.steps, 'submit_form')).toMatchObject({ count: 1 });
    expect(stepOf(data.steps, 'authorize')).toMatchObject({ count: 0, fromPrevious: null });
  });

  it('二次授权 counts re-authorisations after the retention popup only; skin 8’s second page is 二次匹配授权 (issue 44.14)', async () => {
    const path = ['visit_landing', 'login', 'visit_form', 'submit_form', 'visit_authorization', 'authorize'];
    // Skin 8: after the first consent the second match's page opens — no retention popup anywhere.
    await journey(R, 'fp-r-1', [...path, 'second_match_authorization'], { skin: 8 });
    await journey(R, 'fp-r-2', [...path, 'second_match_authorization'], { skin: 8 });
    // An H5 of before this change reported that page as re_authorization: not a re-authorisation.
    await journey(R, 'fp-r-3', [...path, 're_authorization'], { skin: 8 });
    // Someone leaves the result page, sees the retention popup, and opens the authorisation page again.
    await journey(R, 'fp-r-4', [...path, 'visit_result', 'retention_popup', 're_authorization'], { skin: 8 });

    const url = `/api/admin/funnel?channelCode=${R}&from=${today}&to=${today}`;
    const data = body<{
      sideSteps: { step: string; count: number; base: string | null; rate: number | null }[];
    }>(await get(url, tokens.operator)).data;
    const side = (step: string) => data.sideSteps.find((r) => r.step === step)!;
    expect(side('retention_popup').count).toBe(1);
    expect(side('re_authorization')).toMatchObject({ count: 1, base: 'retention_popup', rate: 1 });
    expect(side('second_match_authorization')).toMatchObject({ count: 2, base: 'authorize', rate: 0.5 });

    // The same in the trend, the channel rows' source and the A/B arms.
    const trend = body<{ steps: { step: string }[]; days: { day: string; counts: number[] }[] }>(
      await get(`/api/admin/funnel/trend?channelCode=${R}&from=${today}&to=${today}`, tokens.operator),
    ).data;
    const at = (step: string) => trend.steps.findIndex((s) => s.step === step);
    expect(trend.days[0]!.counts[at('re_authorization')]).toBe(1);
    expect(trend.days[0]!.counts[at('second_match_authorization')]).toBe(2);
    const arms = body<{ arms: { skin: number; steps: { step: string; count: number }[] }[] }>(
      await get(`/api/admin/funnel/arms?channelCode=${R}&from=${today}&to=${today}`, tokens.operator),
    ).data;
    const skin8 = arms.arms.find((a) => a.skin === 8)!;
    expect(skin8.steps.find((s) => s.step === 're_authorization')!.count).toBe(1);
    expect(skin8.steps.find((s) => s.step === 'second_match_authorization')!.count).toBe(2);
  });

  it('the migration gives the second page’s old re_authorization reports their own step; re-authorisations stay', async () => {
    const migration = readFileSync(
      new URL('../drizzle/0014_route_code_misses_and_second_match_step.sql', import.meta.url),
      'utf8',
    );
    const update = migration.split('--> statement-breakpoint').find((s) => s.includes('UPDATE "events"'))!;
    const [old, after] = [`mig-old-${tag}`, `mig-popup-${tag}`];
    const row = (sessionId: string, step: string) => ({
      sessionId,
      step,
      adChannelCode: R,
      skin: 8,
      day: yesterday,
    });
    await app.database.db
      .insert(events)
      .values([
        row(old, 'authorize'),
        row(old, 're_authorization'),
        row(after, 'retention_popup'),
        row(after, 're_authorization'),
      ]);
    await app.database.db.execute(sql.raw(update));
    const steps = await app.database.db
      .select({ sessionId: events.sessionId, step: events.step })
      .from(events)
      .where(and(inArray(events.sessionId, [old, after]), eq(events.adChannelCode, R)))
      .orderBy(events.sessionId, events.step);
    expect(steps).toEqual([
      { sessionId: old, step: 'authorize' },
      { sessionId: old, step: 'second_match_authorization' },
      { sessionId: after, step: 're_authorization' },
      { sessionId: after, step: 'retention_popup' },
    ]);
  });

  it('counts a range of days, filters by skin, and without a channel counts every channel', async () => {
    await app.database.db.insert(events).values([
      { sessionId: `old_${tag}`, step: 'visit_landing', adChannelCode: A, skin: 9, day: yesterday },
      { sessionId: `old_${tag}`, step: 'login', adChannelCode: A, skin: 9, day: yesterday },
    ]);
    await app.database.db
      .insert(channelClicks)
      .values({ adChannelCode: A, fingerprintHash: `h_${tag}`, day: yesterday, abTestType: 9 });
    const two = body<{ steps: StepRow[] }>(
      await get(`/api/admin/funnel?channelCode=${A}&from=${yesterday}&to=${today}`, tokens.viewer),
    ).data;
    expect(stepOf(two.steps, 'click').count).toBe(4);
    expect(stepOf(two.steps, 'visit_landing').count).toBe(3);
    expect(stepOf(two.steps, 'login').count).toBe(2);

    const skin9 = body<{ steps: StepRow[]; skin: number }>(
      await get(`/api/admin/funnel?channelCode=${A}&from=${yesterday}&to=${today}&skin=9`, tokens.viewer),
    ).data;
    expect(skin9.skin).toBe(9);
    expect(skin9.steps.map((s) => s.count).slice(0, 4)).toEqual([1, 1, 0, 1]);

    const both = body<{ steps: StepRow[] }>(
      await get(`/api/admin/funnel?channelCodes=${A},${B}&from=${today}&to=${today}`, tokens.viewer),
    ).data;
    expect(stepOf(both.steps, 'click').count).toBe(4);
    expect(stepOf(both.steps, 'login').count).toBe(2);
    const all = body<{ steps: StepRow[]; channelCodes: null }>(
      await get(`/api/admin/funnel?from=${today}&to=${today}`, tokens.viewer),
    ).data;
    expect(all.channelCodes).toBeNull();
    expect(stepOf(all.steps, 'click').count).toBeGreaterThanOrEqual(4);
  });

  it('gives the trend per day and step, every day of the range', async () => {
    const from = addDays(today, -3);
    const res = await get(
      `/api/admin/funnel/trend?channelCode=${A}&from=${from}&to=${today}`,
      tokens.operator,
    );
    const data = body<{
      steps: { step: string; label: string }[];
      days: { day: string; counts: number[] }[];
    }>(res).data;
    expect(data.days.map((d) => d.day)).toEqual([from, addDays(today, -2), yesterday, today]);
    const login = data.steps.findIndex((s) => s.step === 'login');
    expect(data.steps[login]?.label).toBe('登录');
    expect(data.days.map((d) => d.counts[login])).toEqual([0, 0, 1, 1]);
    expect(data.days.map((d) => d.counts[0])).toEqual([0, 0, 1, 3]);
  });

  it('gives one row per channel, sorted and paged', async () => {
    const res = await get(
      `/api/admin/funnel/by-channel?channelCodes=${A},${B},${AB}&from=${today}&to=${today}&sort=clicks&order=desc&pageSize=2`,
      tokens.viewer,
    );
    const data = body<{ total: number; page: number; list: Record<string, unknown>[] }>(res).data;
    expect(data.total).toBe(3);
    expect(data.list).toHaveLength(2);
    expect(data.list[0]).toMatchObject({
      adChannelCode: A,
      name: '漏斗渠道A',
      clicks: 3,
      visits: 2,
      logins: 1,
      submits: 1,
      authorizations: 0,
      credits: 0,
      loans: 0,
      conversion: 0,
    });
    expect(data.list[1]).toMatchObject({ adChannelCode: B, clicks: 1, logins: 1 });
    const bad = await get('/api/admin/funnel/by-channel?sort=password', tokens.viewer);
    expect(bad.statusCode).toBe(400);
  });

  it('validates the date range', async () => {
    const reversed = await get(`/api/admin/funnel?from=${today}&to=${yesterday}`, tokens.viewer);
    expect(reversed.statusCode).toBe(400);
    expect(body(reversed).msg).toContain('结束日期不能早于开始日期');
    const long = await get(`/api/admin/funnel?from=${addDays(today, -92)}&to=${today}`, tokens.viewer);
    expect(body(long)).toMatchObject({ code: 400 });
    expect(body(long).msg).toContain('92');
    const ok92 = await get(`/api/admin/funnel?from=${addDays(today, -91)}&to=${today}`, tokens.viewer);
    expect(body(ok92).code).toBe(200);
    for (const q of ['from=2025-02-30', 'to=20250101', 'skin=abc', 'channelCode=%3Cx%3E']) {
      const res = await get(`/api/admin/funnel/trend?${q}`, tokens.viewer);
      expect(res.statusCode, q).toBe(400);
    }
    const future = await get(`/api/admin/funnel?from=${addDays(today, 2)}`, tokens.viewer);
    expect(body(future).msg).toContain('开始日期不能晚于今天');
  });

  it('compares A/B arms step by step with a z-test against the control arm', async () => {
    // Control skin 8: 1000 clicks, 200 logins; skin 9: 1000 clicks, 250 logins; 100 and 104 submits.
    const clicks = [8, 9].flatMap((skin) =>
      Array.from({ length: 1000 }, (_, i) => ({
        adChannelCode: AB,
        fingerprintHash: `ab_${skin}_${i}`,
        day: today,
        abTestType: skin,
      })),
    );
    await app.database.db.insert(channelClicks).values(clicks);
    const ev = (skin: number, step: string, n: number) =>
      Array.from({ length: n }, (_, i) => ({
        sessionId: `ab_${skin}_${i}`,
        step,
        adChannelCode: AB,
        skin,
        fingerprintHash: `ab_${skin}_${i}`,
        day: today,
      }));
    await app.database.db
      .insert(events)
      .values([
        ...ev(8, 'login', 200),
        ...ev(9, 'login', 250),
        ...ev(8, 'submit_form', 100),
        ...ev(9, 'submit_form', 104),
      ]);
    // A skin nobody configured shows up after the arms, with too little data for a verdict.
    await app.database.db.insert(events).values(ev(12, 'login', 3));

    const res = await get(
      `/api/admin/funnel/arms?channelCode=${AB}&from=${today}&to=${today}`,
      tokens.viewer,
    );
    expect(res.statusCode).toBe(200);
    type Arm = {
      skin: number;
      weight: number | null;
      isControl: boolean;
      steps: {
        step: string;
        count: number;
        rate: number | null;
        test: {
          z: number | null;
          p: number | null;
          ciLow: number;
          ciHigh: number;
          verdict: string;
          verdictText: string;
        };
      }[];
    };
    const data = body<{ baseStep: string; arms: Arm[] }>(res).data;
    expect(data.baseStep).toBe('click');
    expect(data.arms.map((a) => [a.skin, a.weight, a.isControl])).toEqual([
      [8, 50, true],
      [9, 50, false],
      [12, null, false],
    ]);
    const [control, arm9, arm12] = data.arms as [Arm, Arm, Arm];
    expect(control.steps.find((s) => s.step === 'login')).toMatchObject({ count: 200, rate: 0.2 });
    expect(control.steps.find((s) => s.step === 'login')?.test.verdict).toBe('control');
    const login = arm9.steps.find((s) => s.step === 'login')!;
    expect(login).toMatchObject({ count: 250, rate: 0.25 });
    expect(login.test.z).toBeCloseTo(2.6774, 3);
    expect(login.test.p).toBeCloseTo(0.0074, 4);
    expect(login.test.ciLow).toBeCloseTo(0.0135, 3);
    expect(login.test.ciHigh).toBeCloseTo(0.0865, 3);
    expect(login.test.verdict).toBe('significant');
    expect(login.test.verdictText).toContain('显著');
    const submit = arm9.steps.find((s) => s.step === 'submit_form')!;
    expect(submit.test.verdict).toBe('not_significant');
    expect(submit.test.verdictText).toContain('不显著');
    expect(arm12.steps.find((s) => s.step === 'login')?.test.verdict).toBe('too_small');

    const unknown = await get(`/api/admin/funnel/arms?channelCode=nope-${tag}`, tokens.viewer);
    expect(unknown.statusCode).toBe(404);
    const missing = await get('/api/admin/funnel/arms', tokens.viewer);
    expect(missing.statusCode).toBe(400);
  });

  it('a channel partner sees exactly the figures staff see for its channel, and nothing else', async () => {
    const q = `from=${yesterday}&to=${today}`;
    for (const path of ['/api/admin/funnel', '/api/admin/funnel/trend']) {
      const staffView = body<{ steps: unknown; days?: unknown }>(
        await get(`${path}?channelCode=${A}&${q}`, tokens.operator),
      ).data;
      const partnerView = body<{ steps: unknown; days?: unknown; channelCodes: string[] }>(
        await get(`${path}?${q}`, tokens.partner),
      ).data;
      expect(partnerView.channelCodes).toEqual([A]);
      expect(partnerView.steps).toEqual(staffView.steps);
      expect(partnerView.days).toEqual(staffView.days);
    }
    const rows = body<{ total: number; list: { adChannelCode: string; clicks: number }[] }>(
      await get(`/api/admin/funnel/by-channel?${q}`, tokens.partner),
    ).data;
    expect(rows.total).toBe(1);
    expect(rows.list[0]).toMatchObject({ adChannelCode: A, clicks: 4 });
    const picks = body<{ adChannelCode: string }[]>(
      await get('/api/admin/funnel/channels', tokens.partner),
    ).data;
    expect(picks).toEqual([{ adChannelCode: A, name: '漏斗渠道A' }]);
    const staffPicks = body<unknown[]>(await get('/api/admin/funnel/channels', tokens.viewer)).data;
    expect(staffPicks.length).toBeGreaterThanOrEqual(3);

    for (const url of [
      `/api/admin/funnel?channelCode=${B}`,
      `/api/admin/funnel/trend?channelCodes=${A},${B}`,
      `/api/admin/funnel/by-channel?channelCode=${B}`,
      `/api/admin/funnel/arms?channelCode=${AB}`,
    ]) {
      const res = await get(url, tokens.partner);
      expect(res.statusCode, url).toBe(403);
      expect(body(res).code).toBe(403);
    }
    expect(body(await get(`/api/admin/funnel/arms?channelCode=${A}`, tokens.partner)).code).toBe(200);
    // Every other console call refuses a channel partner.
    for (const url of [
      '/api/admin/dashboard',
      '/api/admin/staff',
      '/api/admin/audit-log',
      '/api/admin/privacy/deletions',
    ]) {
      const res = await get(url, tokens.partner);
      expect(res.statusCode, url).toBe(403);
    }
    expect(
      body<{ role: string; channelCodes: string[] }>(await get('/api/admin/me', tokens.partner)).data,
    ).toMatchObject({ role: 'channel_partner', channelCodes: [A] });
  });

  it('needs a console login', async () => {
    expect((await app.inject({ url: '/api/admin/funnel' })).statusCode).toBe(401);
    const user = await loginAs(app);
    expect((await get('/api/admin/funnel', user.token)).statusCode).toBe(401);
  });

  it('dashboard: today vs yesterday and a 14-day trend', async () => {
    const res = await get('/api/admin/dashboard', tokens.viewer);
    expect(res.statusCode).toBe(200);
    const data = body<{
      today: string;
      figures: { key: string; today: number; yesterday: number }[];
      trend: { day: string; clicks: number; logins: number }[];
    }>(res).data;
    expect(data.today).toBe(today);
    const fig = (key: string) => data.figures.find((f) => f.key === key)!;
    expect(fig('clicks').today).toBeGreaterThanOrEqual(2004);
    expect(fig('clicks').yesterday).toBeGreaterThanOrEqual(1);
    expect(fig('registrations').today).toBeGreaterThanOrEqual(2);
    expect(data.trend).toHaveLength(14);
    expect(data.trend.at(-1)).toMatchObject({
      day: today,
      clicks: fig('clicks').today,
      logins: fig('logins').today,
    });
  });

  it('dashboard: logins, submits and authorisations count people, and every figure says what it counts', async () => {
    const before = body<{ figures: { key: string; today: number }[] }>(
      await get('/api/admin/dashboard', tokens.viewer),
    ).data;
    const was = (key: string) => before.figures.find((f) => f.key === key)!.today;
    // Three new people log in from one device (one H5 visitor); one of them logs in twice more.
    const fingerprint = `fp-people-${tag}`;
    const people: { phone: string; uid: number }[] = [];
    for (let i = 0; i < 3; i++) {
      const person = await loginAs(app, newPhone(), { adChannelCode: A, abTestType: 17 });
      await journey(A, fingerprint, ['login']);
      people.push(person);
    }
    // Two earlier sessions of the first person today (a code can be resent only after 60 s).
    await app.database.db.insert(sessions).values(
      [1, 2].map((i) => ({
        userId: people[0]!.uid,
        tokenHash: `earlier-${tag}-${i}`,
        expiresAt: new Date(Date.now() + 86_400_000),
        revokedAt: new Date(),
        revokeReason: 'replaced' as const,
      })),
    );

    const res = await get('/api/admin/dashboard', tokens.viewer);
    const data = body<{
      figures: { key: string; label: string; today: number; counts: string; hint: string }[];
      trend: { day: string; logins: number }[];
    }>(res).data;
    const fig = (key: string) => data.figures.find((f) => f.key === key)!;
    // Three more people, not one device and not five logins.
    expect(fig('logins').today - was('logins')).toBe(3);
    expect(fig('registrations').today - was('registrations')).toBe(3);
    // Whoever registered today also logged in today.
    expect(fig('logins').today).toBeGreaterThanOrEqual(fig('registrations').today);
    expect(data.trend.at(-1)?.logins).toBe(fig('logins').today);
    expect(Object.fromEntries(data.figures.map((f) => [f.key, f.counts]))).toEqual({
      clicks: 'devices',
      visits: 'devices',
      logins: 'people',
      registrations: 'people',
      submits: 'people',
      authorizations: 'people',
      leads: 'leads',
      credits: 'people',
      loans: 'people',
    });
    for (const f of data.figures) expect(f.hint.length, f.key).toBeGreaterThan(8);
  });
});
