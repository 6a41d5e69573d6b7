import { OUTCOME_STATUSES } from '@lm/shared/outcomes';
import { FUNNEL_PATH_STEPS, FUNNEL_SIDE_STEPS, FUNNEL_VIEW_STEPS } from '@lm/shared/schemas/funnel';
import { describe, expect, it } from 'vitest';
import {
  assembleFunnel,
  assembleTrend,
  COUNTED_OUTCOMES,
  type CohortLead,
  channelRows,
  compareArm,
  eachDay,
  erfc,
  MIN_SAMPLE,
  normalCdf,
  outcomeStepRows,
  outcomeStepsOf,
  resolveRange,
  scopeChannels,
  twoProportionZTest,
  twoSidedP,
} from './rules.ts';

describe('normal distribution', () => {
  it('matches tabulated values of Φ', () => {
    const table: [number, number][] = [
      [0, 0.5],
      [1, 0.841344746],
      [-1, 0.158655254],
      [1.959963985, 0.975],
      [-1.959963985, 0.025],
      [2.575829304, 0.995],
      [3, 0.998650102],
      [-3.090232306, 0.001],
      [0.5, 0.691462461],
    ];
    for (const [x, p] of table) expect(normalCdf(x)).toBeCloseTo(p, 6);
  });

  it('keeps small tail probabilities accurate (relative, not just absolute)', () => {
    // erfc(3) = 2.209049699858544e-5; erfc(5) = 1.5374597944280347e-12
    expect(erfc(3) / 2.209049699858544e-5).toBeCloseTo(1, 5);
    expect(erfc(5) / 1.5374597944280347e-12).toBeCloseTo(1, 5);
    expect(erfc(-1)).toBeCloseTo(2 - 0.157299207050285, 7);
    expect(twoSidedP(1.959963985)).toBeCloseTo(0.05, 6);
    expect(twoSidedP(-2.575829304)).toBeCloseTo(0.01, 6);
    expect(twoSidedP(0)).toBe(1);
  });

  it('is monotone and symmetric', () => {
    let last = 0;
    for (let x = -8; x <= 8; x += 0.05) {
      const v = normalCdf(x);
      expect(v).toBeGreaterThanOrEqual(last);
      expect(v + normalCdf(-x)).toBeCloseTo(1, 9);
      last = v;
    }
  });
});

describe('two-proportion z-test', () => {
  it('200/1000 vs 250/1000 → z ≈ −2.68, p ≈ 0.0074, CI of the difference', () => {
    const t = twoProportionZTest(200, 1000, 250, 1000);
    expect(t.z).toBeCloseTo(-2.6774, 3);
    expect(t.p).toBeCloseTo(0.00742, 4);
    expect(t.diff).toBeCloseTo(-0.05, 10);
    // unpooled SE = sqrt(.2·.8/1000 + .25·.75/1000) = 0.018641; ± 1.96·SE
    expect(t.ciLow).toBeCloseTo(-0.05 - 1.959964 * 0.0186413, 5);
    expect(t.ciHigh).toBeCloseTo(-0.05 + 1.959964 * 0.0186413, 5);
  });

  it('swapping the groups flips z and the interval, not p', () => {
    const a = twoProportionZTest(200, 1000, 250, 1000);
    const b = twoProportionZTest(250, 1000, 200, 1000);
    expect(b.z).toBeCloseTo(-(a.z ?? 0), 10);
    expect(b.p).toBeCloseTo(a.p ?? 0, 10);
    expect(b.ciLow).toBeCloseTo(-(a.ciHigh ?? 0), 10);
  });

  it('equal rates give z = 0 and p = 1; unequal sizes are handled', () => {
    const t = twoProportionZTest(50, 500, 100, 1000);
    expect(t.z).toBeCloseTo(0, 12);
    expect(t.p).toBeCloseTo(1, 9);
    // 45/300 vs 30/300: pooled .125, se = sqrt(.125·.875·2/300) = .027003 → z = 1.8516
    expect(twoProportionZTest(45, 300, 30, 300).z).toBeCloseTo(1.8516, 3);
  });

  it('answers nulls for impossible input and no variance for all-or-nothing arms', () => {
    expect(twoProportionZTest(1, 0, 1, 10).z).toBeNull();
    expect(twoProportionZTest(11, 10, 1, 10).z).toBeNull();
    expect(twoProportionZTest(-1, 10, 1, 10).p).toBeNull();
    const none = twoProportionZTest(0, 100, 0, 100);
    expect(none).toMatchObject({ z: 0, p: 1, diff: 0 });
  });
});

describe('arm verdicts', () => {
  it('significant with direction and size in plain Chinese', () => {
    const up = compareArm(250, 1000, 200, 1000);
    expect(up.verdict).toBe('significant');
    expect(up.verdictText).toMatch(/^显著：转化率高于对照组 5 个百分点/);
    expect(up.z).toBeCloseTo(2.6774, 3);
    const down = compareArm(200, 1000, 250, 1000);
    expect(down.verdictText).toContain('低于对照组');
  });

  it('not significant for a small difference', () => {
    const r = compareArm(210, 1000, 200, 1000);
    expect(r.verdict).toBe('not_significant');
    expect(r.verdictText).toMatch(/^不显著/);
    expect(r.p).toBeGreaterThan(0.05);
  });

  it('too small below the minimum sample or with too few expected conversions', () => {
    const small = compareArm(10, MIN_SAMPLE - 1, 2, 100);
    expect(small.verdict).toBe('too_small');
    expect(small.verdictText).toContain('样本量不足');
    // 1 + 2 conversions in 1000 + 1000: fewer than 5 expected per arm
    expect(compareArm(1, 1000, 2, 1000).verdict).toBe('too_small');
    expect(compareArm(0, 0, 0, 0).verdict).toBe('too_small');
    // the statistics are still given when they can be computed
    expect(compareArm(1, 1000, 2, 1000).z).not.toBeNull();
  });
});

describe('date range', () => {
  const today = '2025-03-10';
  it('defaults to the last 7 days ending today', () => {
    expect(resolveRange({}, today)).toEqual({ ok: true, from: '2025-03-04', to: today });
    expect(resolveRange({ to: '2025-03-01' }, today)).toEqual({
      ok: true,
      from: '2025-02-23',
      to: '2025-03-01',
    });
    expect(resolveRange({ from: '2025-03-08' }, today)).toEqual({ ok: true, from: '2025-03-08', to: today });
  });
  it('allows 92 days, refuses 93, reversed ranges and ranges starting in the future', () => {
    expect(resolveRange({ from: '2024-12-09', to: today }, today)).toMatchObject({ ok: true });
    expect(resolveRange({ from: '2024-12-08', to: today }, today)).toEqual({
      ok: false,
      message: '日期范围最多 92 天',
    });
    expect(resolveRange({ from: '2024-10-01' }, today)).toMatchObject({ ok: false });
    expect(resolveRange({ from: '2025-03-05', to: '2025-03-04' }, today)).toEqual({
      ok: false,
      message: '结束日期不能早于开始日期',
    });
    expect(resolveRange({ from: '2025-03-11' }, today)).toEqual({
      ok: false,
      message: '开始日期不能晚于今天',
    });
  });
  it('lists every day across month and leap-year ends', () => {
    expect(eachDay('2024-02-27', '2024-03-01')).toEqual([
      '2024-02-27',
      '2024-02-28',
      '2024-02-29',
      '2024-03-01',
    ]);
    expect(eachDay('2025-12-31', '2026-01-01')).toEqual(['2025-12-31', '2026-01-01']);
  });
});

describe('funnel assembly', () => {
  it('orders the steps as spec §1 and computes conversion and drop-off', () => {
    const { steps: rows } = assembleFunnel({
      click: { count: 100, sessions: 100 },
      visit_landing: { count: 80, sessions: 90 },
      get_verification_code: { count: 40, sessions: 41 },
      login: { count: 30, sessions: 30 },
      submit_form: { count: 10, sessions: 10 },
    });
    expect(rows.map((r) => r.step)).toEqual([...FUNNEL_PATH_STEPS]);
    expect(rows[0]).toMatchObject({
      step: 'click',
      count: 100,
      fromPrevious: null,
      fromFirst: 1,
      dropOff: 0,
    });
    expect(rows[1]).toMatchObject({
      count: 80,
      sessions: 90,
      fromPrevious: 0.8,
      fromFirst: 0.8,
      dropOff: 20,
    });
    expect(rows[1]?.dropOffRate).toBeCloseTo(0.2, 10);
    expect(rows[3]).toMatchObject({ step: 'login', fromPrevious: 0.75, fromFirst: 0.3, dropOff: 10 });
    // visit_form has no data: zero, and the next step has no previous base
    expect(rows[4]).toMatchObject({ step: 'visit_form', count: 0, fromPrevious: 0, dropOff: 30 });
    // More reach submit_form than visit_form: no drop-off (never a negative one).
    expect(rows[5]).toMatchObject({ step: 'submit_form', count: 10, fromPrevious: null, dropOff: null });
    expect(rows[5]?.dropOffRate).toBeNull();
    expect(rows[5]?.fromFirst).toBeCloseTo(0.1, 10);
  });
  it('keeps the steps not on every path out of the funnel and shows them beside it', () => {
    const { steps, sideSteps } = assembleFunnel({
      click: { count: 10, sessions: 10 },
      visit_result: { count: 2, sessions: 2 },
      download_app: { count: 1, sessions: 1 },
      retention_popup: { count: 4, sessions: 5 },
      re_authorization: { count: 1, sessions: 1 },
    });
    expect(steps.map((r) => r.step)).not.toContain('retention_popup');
    // The result page opens after a consent and also when nothing matched: beside the funnel, no rate.
    expect(steps.map((r) => r.step)).not.toContain('visit_result');
    expect(steps.at(-1)?.step).toBe('loan');
    expect(steps.every((r) => r.dropOff === null || r.dropOff >= 0)).toBe(true);
    expect(sideSteps.map((r) => r.step)).toEqual([...FUNNEL_SIDE_STEPS]);
    expect(sideSteps[0]).toMatchObject({ step: 'visit_result', label: '访问结果页', count: 2, rate: null });
    expect(sideSteps[2]).toMatchObject({
      step: 'retention_popup',
      label: '挽留弹窗',
      count: 4,
      sessions: 5,
      rate: null,
    });
    expect(sideSteps[3]).toMatchObject({ step: 're_authorization', base: 'retention_popup', rate: 0.25 });
  });
  it('counts the second match’s authorisation page apart from 二次授权, from the first authorisation (issue 44.14)', () => {
    // Skin 8's /seconed-match-authorize with no retention popup at all: 二次匹配授权, not 二次授权.
    const { sideSteps } = assembleFunnel({
      click: { count: 10, sessions: 10 },
      authorize: { count: 4, sessions: 4 },
      second_match_authorization: { count: 3, sessions: 3 },
    });
    const side = (step: string) => sideSteps.find((r) => r.step === step);
    expect(side('retention_popup')).toMatchObject({ count: 0 });
    expect(side('re_authorization')).toMatchObject({ label: '二次授权', count: 0, base: 'retention_popup' });
    expect(side('re_authorization')?.hint).toContain('挽留弹窗后');
    expect(side('second_match_authorization')).toMatchObject({
      label: '二次匹配授权',
      count: 3,
      base: 'authorize',
      baseLabel: '授权',
      rate: 0.75,
    });
  });
  it('has no rates without a first step', () => {
    const { steps: rows } = assembleFunnel({ login: { count: 3, sessions: 3 } });
    expect(rows.every((r) => r.fromFirst === null)).toBe(true);
    expect(rows[3]).toMatchObject({ count: 3, fromPrevious: null });
  });
  it('fills every day of the trend, adding rows of the same day and step', () => {
    const days = assembleTrend('2025-01-30', '2025-02-02', [
      { day: '2025-01-31', step: 'click', count: 4 },
      { day: '2025-01-31', step: 'login', count: 2 },
      { day: '2025-02-02', step: 'login', count: 1 },
      { day: '2025-02-02', step: 'login', count: 1 },
      { day: '2025-02-02', step: 'init', count: 9 },
      { day: '2025-03-01', step: 'login', count: 9 },
    ]);
    expect(days.map((d) => d.day)).toEqual(['2025-01-30', '2025-01-31', '2025-02-01', '2025-02-02']);
    const login = FUNNEL_VIEW_STEPS.indexOf('login');
    expect(days[1]?.counts[0]).toBe(4);
    expect(days[1]?.counts[login]).toBe(2);
    expect(days[3]?.counts[login]).toBe(2);
    expect(days[0]?.counts.every((c) => c === 0)).toBe(true);
    expect(days[3]?.counts.reduce((a, b) => a + b, 0)).toBe(2);
  });
});

describe('per-channel rows', () => {
  const channels = [
    { adChannelCode: 'a', name: 'A' },
    { adChannelCode: 'b', name: 'B' },
    { adChannelCode: 'quiet', name: '安静' },
  ];
  const data = [
    { adChannelCode: 'a', step: 'click', count: 10 },
    { adChannelCode: 'a', step: 'authorize', count: 2 },
    { adChannelCode: 'b', step: 'click', count: 40 },
    { adChannelCode: 'b', step: 'authorize', count: 4 },
    { adChannelCode: 'b', step: 'login', count: 20 },
    { adChannelCode: 'gone', step: 'login', count: 1 },
  ];
  it('one row per channel, quiet channels with zeros, unknown codes without a name', () => {
    const r = channelRows(channels, data, { sort: 'clicks', order: 'desc', page: 1, pageSize: 20 });
    expect(r.total).toBe(4);
    expect(r.list.map((x) => x.adChannelCode)).toEqual(['b', 'a', 'gone', 'quiet']);
    expect(r.list[0]).toMatchObject({ clicks: 40, logins: 20, authorizations: 4, conversion: 0.1 });
    expect(r.list[2]).toMatchObject({ name: null, clicks: 0, conversion: null });
  });
  it('sorts by conversion with nulls last, and pages', () => {
    const r = channelRows(channels, data, { sort: 'conversion', order: 'desc', page: 1, pageSize: 2 });
    expect(r.list.map((x) => x.adChannelCode)).toEqual(['a', 'b']);
    const asc = channelRows(channels, data, { sort: 'conversion', order: 'asc', page: 2, pageSize: 2 });
    expect(asc.total).toBe(4);
    expect(asc.list.map((x) => x.conversion)).toEqual([null, null]);
  });
});

describe('the lenders’ outcomes as steps (issue 47.6)', () => {
  it('授信 and 放款 follow 授权 in the funnel, with rates from the step before and the first', () => {
    const authorize = FUNNEL_PATH_STEPS.indexOf('authorize');
    expect(FUNNEL_PATH_STEPS.slice(authorize)).toEqual(['authorize', 'credit', 'loan']);
    const inView = FUNNEL_VIEW_STEPS.indexOf('authorize');
    expect(FUNNEL_VIEW_STEPS.slice(inView, inView + 3)).toEqual(['authorize', 'credit', 'loan']);
    const { steps } = assembleFunnel({
      click: { count: 200, sessions: 200 },
      authorize: { count: 40, sessions: 44 },
      credit: { count: 10, sessions: 11 },
      loan: { count: 4, sessions: 4 },
    });
    const row = (step: string) => steps.find((r) => r.step === step);
    expect(row('credit')).toMatchObject({
      label: '授信',
      count: 10,
      fromPrevious: 0.25,
      fromFirst: 0.05,
      dropOff: 30,
    });
    expect(row('credit')?.dropOffRate).toBeCloseTo(0.75, 10);
    expect(row('loan')).toMatchObject({
      label: '放款',
      count: 4,
      fromPrevious: 0.4,
      fromFirst: 0.02,
      dropOff: 6,
    });
  });

  it('approved or funded reaches 授信, funded also 放款; received, duplicate, declined and no answer reach nothing', () => {
    const reached = Object.fromEntries(
      [...OUTCOME_STATUSES, null].map((o) => [String(o), outcomeStepsOf(o)]),
    );
    expect(reached).toEqual({
      received: [],
      duplicate: [],
      approved: ['credit'],
      declined: [],
      funded: ['credit', 'loan'],
      null: [],
    });
    expect([...COUNTED_OUTCOMES].sort()).toEqual(['approved', 'funded']);
    expect(outcomeStepsOf('something else')).toEqual([]);
  });

  const lead = (over: Partial<CohortLead>): CohortLead => ({
    day: '2025-03-10',
    sessionId: 's1',
    adChannelCode: 'a',
    skin: 17,
    userId: 1,
    outcome: 'approved',
    ...over,
  });
  const whole = (leads: CohortLead[]) =>
    Object.fromEntries(outcomeStepRows(leads, () => 'all').map((r) => [r.step, [r.count, r.sessions]]));

  it('a person funded by two lenders counts once at 授信 and once at 放款', () => {
    expect(
      whole([
        lead({ outcome: 'funded' }),
        // The second lender's lead of the same consent session …
        lead({ outcome: 'funded' }),
        // … and a third lender's lead of a second authorisation session that day (二次匹配).
        lead({ sessionId: 's2', outcome: 'approved' }),
      ]),
    ).toEqual({ credit: [1, 2], loan: [1, 1] });
  });

  it('a declined, duplicate or unanswered lead is not counted; another lender’s approval of the person is', () => {
    expect(
      whole([
        lead({ userId: 1, outcome: 'declined' }),
        lead({ userId: 2, outcome: 'duplicate' }),
        lead({ userId: 3, outcome: 'received' }),
        lead({ userId: 4, outcome: null }),
      ]),
    ).toEqual({});
    expect(
      whole([lead({ userId: 5, outcome: 'declined' }), lead({ userId: 5, outcome: 'approved' })]),
    ).toEqual({
      credit: [1, 1],
    });
  });

  it('counts distinct persons per day of authorisation, grouped by day, channel or skin', () => {
    const leads = [
      lead({ userId: 1, outcome: 'funded' }),
      lead({ userId: 2, sessionId: 's2', outcome: 'approved' }),
      lead({ userId: 3, sessionId: 's3', adChannelCode: 'b', skin: 8, outcome: 'funded' }),
      // Person 1 authorised again the next day and was approved for that lead too: counted on both days.
      lead({ userId: 1, sessionId: 's4', day: '2025-03-11', outcome: 'approved' }),
      lead({ userId: 6, sessionId: 's6', adChannelCode: null, skin: null, outcome: 'approved' }),
    ];
    expect(whole(leads)).toEqual({ credit: [5, 5], loan: [2, 2] });
    const by = <K>(groupOf: (l: CohortLead) => K) =>
      outcomeStepRows(leads, groupOf).map((r) => [r.key, r.step, r.count]);
    expect(by((l) => l.day)).toEqual([
      ['2025-03-10', 'credit', 4],
      ['2025-03-10', 'loan', 2],
      ['2025-03-11', 'credit', 1],
    ]);
    expect(by((l) => l.adChannelCode ?? '')).toEqual([
      ['a', 'credit', 3],
      ['a', 'loan', 1],
      ['b', 'credit', 1],
      ['b', 'loan', 1],
      ['', 'credit', 1],
    ]);
    expect(by((l) => l.skin)).toEqual([
      [17, 'credit', 3],
      [17, 'loan', 1],
      [8, 'credit', 1],
      [8, 'loan', 1],
      [null, 'credit', 1],
    ]);
  });

  it('the trend and the channel rows carry 授信 and 放款', () => {
    const days = assembleTrend('2025-03-10', '2025-03-11', [
      { day: '2025-03-10', step: 'authorize', count: 5 },
      { day: '2025-03-10', step: 'credit', count: 2 },
      { day: '2025-03-11', step: 'loan', count: 1 },
    ]);
    const at = (step: (typeof FUNNEL_VIEW_STEPS)[number]) => FUNNEL_VIEW_STEPS.indexOf(step);
    expect(
      days.map((d) => [d.counts[at('authorize')], d.counts[at('credit')], d.counts[at('loan')]]),
    ).toEqual([
      [5, 2, 0],
      [0, 0, 1],
    ]);
    const rows = channelRows(
      [{ adChannelCode: 'a', name: 'A' }],
      [
        { adChannelCode: 'a', step: 'click', count: 10 },
        { adChannelCode: 'a', step: 'credit', count: 3 },
        { adChannelCode: 'a', step: 'loan', count: 1 },
        { adChannelCode: 'b', step: 'loan', count: 2 },
      ],
      { sort: 'loans', order: 'desc', page: 1, pageSize: 20 },
    );
    expect(rows.list.map((r) => [r.adChannelCode, r.credits, r.loans])).toEqual([
      ['b', 0, 2],
      ['a', 3, 1],
    ]);
  });
});

describe('channel scope', () => {
  it('staff see what they ask for, or everything', () => {
    expect(scopeChannels({ role: 'viewer', channelCodes: [] }, [])).toEqual({ ok: true, codes: null });
    expect(scopeChannels({ role: 'admin', channelCodes: [] }, ['x'])).toEqual({ ok: true, codes: ['x'] });
  });
  it('a channel partner sees only its own channels', () => {
    const partner = { role: 'channel_partner', channelCodes: ['a', 'b'] };
    expect(scopeChannels(partner, [])).toEqual({ ok: true, codes: ['a', 'b'] });
    expect(scopeChannels(partner, ['b'])).toEqual({ ok: true, codes: ['b'] });
    expect(scopeChannels(partner, ['b', 'c'])).toEqual({ ok: false, message: '无权查看渠道 c 的数据' });
    expect(scopeChannels({ role: 'channel_partner', channelCodes: [] }, [])).toMatchObject({ ok: false });
  });
});
