/**
 * Funnel arithmetic (issue 7), pure: the date range, the funnel from per-step counts, the lenders' outcomes as
 * steps (issue 47.6), the daily trend, per-channel rows, and the two-proportion z-test of A/B skin arms with its
 * normal CDF.
 */
import type { OutcomeStatus } from '@lm/shared/outcomes';
import {
  daysBetween,
  FUNNEL_DEFAULT_DAYS,
  FUNNEL_MAX_DAYS,
  FUNNEL_OUTCOME_STEPS,
  FUNNEL_PATH_STEPS,
  FUNNEL_SIDE_STEP_INFO,
  FUNNEL_SIDE_STEPS,
  FUNNEL_VIEW_STEP_LABELS,
  FUNNEL_VIEW_STEPS,
  type FunnelChannelRow,
  type FunnelOutcomeStep,
  type FunnelSideStepRow,
  type FunnelStepRow,
  type FunnelViewStep,
  type ZTestResult,
} from '@lm/shared/schemas/funnel';

/** Days of the dashboard's small trend. */
export const FUNNEL_TREND_DASHBOARD_DAYS = 14;

export type ScopeResult = { ok: true; codes: string[] | null } | { ok: false; message: string };

/**
 * The channels a console account's funnel query covers. Staff: what it asked for, or every channel
 * (null). A channel partner: only its own channels — all of them when it names none, and a refusal
 * when it names another one (or has none assigned).
 */
export function scopeChannels(
  member: { role: string; channelCodes: readonly string[] },
  requested: readonly string[],
): ScopeResult {
  if (member.role !== 'channel_partner') return { ok: true, codes: requested.length ? [...requested] : null };
  const own = member.channelCodes;
  if (own.length === 0) return { ok: false, message: '账号未绑定渠道，请联系管理员' };
  const foreign = requested.filter((c) => !own.includes(c));
  if (foreign.length) return { ok: false, message: `无权查看渠道 ${foreign.join('、')} 的数据` };
  return { ok: true, codes: requested.length ? [...requested] : [...own] };
}

export interface StepCount {
  /** Distinct visitors (device per day). */
  count: number;
  sessions: number;
}
export type StepCounts = Partial<Record<FunnelViewStep, StepCount>>;

/**
 * The lead outcomes that put a person at each outcome step (issue 47.6): 授信 — the lender approved the lead
 * or funded it (a loan is paid out on an approval, even when the lender reported only the loan); 放款 — funded.
 * A lead received, duplicate, declined or not answered yet reaches neither. The lead's outcome is its current
 * one (outcomeTransition): an approval later declined no longer counts.
 */
export const OUTCOME_STEP_STATUSES: Record<FunnelOutcomeStep, readonly OutcomeStatus[]> = {
  credit: ['approved', 'funded'],
  loan: ['funded'],
};

/** Every outcome that reaches some outcome step: the only leads the repository needs to read. */
export const COUNTED_OUTCOMES: readonly OutcomeStatus[] = [
  ...new Set(Object.values(OUTCOME_STEP_STATUSES).flat()),
];

/** The outcome steps a lead with this outcome reaches (none for null: nothing reported yet). */
export function outcomeStepsOf(outcome: string | null): FunnelOutcomeStep[] {
  return FUNNEL_OUTCOME_STEPS.filter((step) =>
    (OUTCOME_STEP_STATUSES[step] as readonly string[]).includes(outcome ?? ''),
  );
}

/**
 * One lead in the cohort of an authorisation: the funnel's `authorize` event (its Shanghai day, analytics
 * session, channel and skin) of the person who consented, and the outcome of a lead that person's consent made
 * that day. A person with several leads (lenders) or several authorisation sessions that day gives several.
 */
export interface CohortLead {
  day: string;
  sessionId: string;
  adChannelCode: string | null;
  skin: number | null;
  userId: number;
  outcome: string | null;
}

/**
 * 授信 and 放款 per group (the whole range, a day, a channel, a skin): `count` distinct persons per day of
 * authorisation — a person approved or funded by two lenders counts once, as a device counts once a day at the
 * other steps — and `sessions` the distinct authorisation sessions behind them. Groups and steps nobody reached
 * are left out.
 */
export function outcomeStepRows<K>(
  leads: readonly CohortLead[],
  groupOf: (lead: CohortLead) => K,
): { key: K; step: FunnelOutcomeStep; count: number; sessions: number }[] {
  const groups = new Map<K, Map<FunnelOutcomeStep, { people: Set<string>; sessions: Set<string> }>>();
  for (const lead of leads) {
    for (const step of outcomeStepsOf(lead.outcome)) {
      const key = groupOf(lead);
      const steps = groups.get(key) ?? new Map();
      groups.set(key, steps);
      const seen = steps.get(step) ?? { people: new Set<string>(), sessions: new Set<string>() };
      steps.set(step, seen);
      seen.people.add(`${lead.day}:${lead.userId}`);
      seen.sessions.add(lead.sessionId);
    }
  }
  return [...groups].flatMap(([key, steps]) =>
    FUNNEL_OUTCOME_STEPS.flatMap((step) => {
      const seen = steps.get(step);
      return seen ? [{ key, step, count: seen.people.size, sessions: seen.sessions.size }] : [];
    }),
  );
}

/** `day` plus `n` calendar days (YYYY-MM-DD arithmetic in UTC, no time zone involved). */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** Every day from `from` to `to`, both included. */
export function eachDay(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}

export type RangeResult = { ok: true; from: string; to: string } | { ok: false; message: string };

/**
 * The range a query covers: `to` defaults to `today`, `from` to the 6 days before `to`. At most
 * FUNNEL_MAX_DAYS days, `from` ≤ `to`, and not after today (the future has no data).
 */
export function resolveRange(
  input: { from?: string | undefined; to?: string | undefined },
  today: string,
): RangeResult {
  const to = input.to ?? (input.from && input.from > today ? input.from : today);
  const from = input.from ?? addDays(to, -(FUNNEL_DEFAULT_DAYS - 1));
  const span = daysBetween(from, to);
  if (span < 1) return { ok: false, message: '结束日期不能早于开始日期' };
  if (span > FUNNEL_MAX_DAYS) return { ok: false, message: `日期范围最多 ${FUNNEL_MAX_DAYS} 天` };
  if (from > today) return { ok: false, message: '开始日期不能晚于今天' };
  return { ok: true, from, to };
}

function ratio(n: number, d: number): number | null {
  return d > 0 ? n / d : null;
}

/**
 * The funnel: FUNNEL_PATH_STEPS in spec §1 order with count, conversion from the previous and the
 * first step and drop-off (null, not negative, when more reach a step than the one before); and
 * FUNNEL_SIDE_STEPS beside it, each with its rate from its own base step where it has one.
 */
export function assembleFunnel(counts: StepCounts): {
  steps: FunnelStepRow[];
  sideSteps: FunnelSideStepRow[];
} {
  const first = counts[FUNNEL_PATH_STEPS[0]]?.count ?? 0;
  let previous: number | null = null;
  const steps = FUNNEL_PATH_STEPS.map((step) => {
    const c = counts[step] ?? { count: 0, sessions: 0 };
    const lost = previous === null ? 0 : previous - c.count;
    const row: FunnelStepRow = {
      step,
      label: FUNNEL_VIEW_STEP_LABELS[step],
      count: c.count,
      sessions: c.sessions,
      fromPrevious: previous === null ? null : ratio(c.count, previous),
      fromFirst: ratio(c.count, first),
      dropOff: lost < 0 ? null : lost,
      dropOffRate: previous === null || lost < 0 ? null : ratio(lost, previous),
    };
    previous = c.count;
    return row;
  });
  const sideSteps = FUNNEL_SIDE_STEPS.map((step): FunnelSideStepRow => {
    const c = counts[step] ?? { count: 0, sessions: 0 };
    const { hint, base } = FUNNEL_SIDE_STEP_INFO[step];
    return {
      step,
      label: FUNNEL_VIEW_STEP_LABELS[step],
      count: c.count,
      sessions: c.sessions,
      hint,
      base,
      baseLabel: base ? FUNNEL_VIEW_STEP_LABELS[base] : null,
      rate: base ? ratio(c.count, counts[base]?.count ?? 0) : null,
    };
  });
  return { steps, sideSteps };
}

/** One row per day of the range (days without data are zeros); counts in FUNNEL_VIEW_STEPS order. */
export function assembleTrend(
  from: string,
  to: string,
  rows: readonly { day: string; step: string; count: number }[],
): { day: string; counts: number[] }[] {
  const index = new Map<string, number[]>();
  const days = eachDay(from, to).map((day) => {
    const counts = FUNNEL_VIEW_STEPS.map(() => 0);
    index.set(day, counts);
    return { day, counts };
  });
  for (const r of rows) {
    const i = FUNNEL_VIEW_STEPS.indexOf(r.step as FunnelViewStep);
    const counts = index.get(r.day);
    if (i >= 0 && counts) counts[i] = (counts[i] ?? 0) + r.count;
  }
  return days;
}

type ChannelSort = keyof Omit<FunnelChannelRow, 'name'>;

/**
 * One row per channel: every channel in `channels` (zeros when quiet) plus codes seen in the data.
 * Sorted by `sort` (nulls last, ties by code) and cut to the page.
 */
export function channelRows(
  channels: readonly { adChannelCode: string; name: string }[],
  rows: readonly { adChannelCode: string; step: string; count: number }[],
  opts: { sort: ChannelSort; order: 'asc' | 'desc'; page: number; pageSize: number },
): { total: number; list: FunnelChannelRow[] } {
  const byCode = new Map<string, FunnelChannelRow>();
  const get = (code: string, name: string | null) => {
    let row = byCode.get(code);
    if (!row) {
      row = {
        adChannelCode: code,
        name,
        clicks: 0,
        visits: 0,
        logins: 0,
        submits: 0,
        authorizations: 0,
        credits: 0,
        loans: 0,
        conversion: null,
      };
      byCode.set(code, row);
    }
    return row;
  };
  for (const c of channels) get(c.adChannelCode, c.name);
  const field: Partial<Record<string, Exclude<ChannelSort, 'adChannelCode' | 'conversion'>>> = {
    click: 'clicks',
    visit_landing: 'visits',
    login: 'logins',
    submit_form: 'submits',
    authorize: 'authorizations',
    credit: 'credits',
    loan: 'loans',
  };
  for (const r of rows) {
    const f = field[r.step];
    if (f) get(r.adChannelCode, null)[f] += r.count;
  }
  const all = [...byCode.values()].map((r) => ({ ...r, conversion: ratio(r.authorizations, r.clicks) }));
  const dir = opts.order === 'asc' ? 1 : -1;
  all.sort((a, b) => {
    const x = a[opts.sort];
    const y = b[opts.sort];
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      return (x < y ? -1 : 1) * dir;
    }
    return a.adChannelCode < b.adChannelCode ? -1 : a.adChannelCode > b.adChannelCode ? 1 : 0;
  });
  const start = (opts.page - 1) * opts.pageSize;
  return { total: all.length, list: all.slice(start, start + opts.pageSize) };
}

// ---------------------------------------------------------------------------------------------
// Statistics

/**
 * Complementary error function, erfc(x) = 1 − erf(x), by the Chebyshev fit of Numerical Recipes
 * (§6.2, "erfcc"): relative error below 1.2e-7 everywhere, so tail p-values stay accurate.
 */
export function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 +
                            t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/** Standard normal cumulative distribution Φ(x). */
export function normalCdf(x: number): number {
  return 0.5 * erfc(-x / Math.SQRT2);
}

/** Two-sided p-value of a standard normal statistic. */
export function twoSidedP(z: number): number {
  return Math.min(1, erfc(Math.abs(z) / Math.SQRT2));
}

/** z of the two-sided 95 % interval. */
export const Z_95 = 1.959963984540054;
/** Fewer visitors than this at the base step in either arm: no verdict. */
export const MIN_SAMPLE = 30;
/** Successes and failures each expected at least this often (normal approximation). */
export const MIN_EXPECTED = 5;
export const ALPHA = 0.05;

function pct(x: number): string {
  const v = Math.round(x * 10000) / 100;
  return `${Number.isInteger(v) ? v : v.toFixed(2)}`;
}

/**
 * Two-proportion z-test of x1/n1 against x2/n2 (pooled standard error), the two-sided p-value and the
 * 95 % confidence interval of p1 − p2 (unpooled). E.g. 200/1000 vs 250/1000 → z ≈ −2.68, p ≈ 0.0074.
 */
export function twoProportionZTest(
  x1: number,
  n1: number,
  x2: number,
  n2: number,
): { z: number | null; p: number | null; diff: number | null; ciLow: number | null; ciHigh: number | null } {
  if (n1 <= 0 || n2 <= 0 || x1 < 0 || x2 < 0 || x1 > n1 || x2 > n2) {
    return { z: null, p: null, diff: null, ciLow: null, ciHigh: null };
  }
  const p1 = x1 / n1;
  const p2 = x2 / n2;
  const diff = p1 - p2;
  const pooled = (x1 + x2) / (n1 + n2);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2));
  const seDiff = Math.sqrt((p1 * (1 - p1)) / n1 + (p2 * (1 - p2)) / n2);
  const half = Z_95 * seDiff;
  if (se === 0) {
    // Both arms all-or-nothing alike: no difference to test.
    return { z: 0, p: 1, diff, ciLow: diff - half, ciHigh: diff + half };
  }
  const z = diff / se;
  return { z, p: twoSidedP(z), diff, ciLow: diff - half, ciHigh: diff + half };
}

/**
 * Compares an arm (x/n) with the control arm (cx/cn): the test with a verdict in plain Chinese.
 * Too small when either base is below MIN_SAMPLE or the pooled counts expect fewer than MIN_EXPECTED
 * successes or failures in an arm.
 */
export function compareArm(x: number, n: number, cx: number, cn: number): ZTestResult {
  const t = twoProportionZTest(x, n, cx, cn);
  const pooled = n + cn > 0 ? (x + cx) / (n + cn) : 0;
  const smallest = Math.min(n, cn);
  const expected = Math.min(smallest * pooled, smallest * (1 - pooled));
  if (t.z === null || smallest < MIN_SAMPLE || expected < MIN_EXPECTED) {
    return {
      ...t,
      verdict: 'too_small',
      verdictText: `样本量不足（每组至少 ${MIN_SAMPLE} 人，且转化与未转化各约 ${MIN_EXPECTED} 人以上），暂无结论`,
    };
  }
  const p = t.p ?? 1;
  const diff = t.diff ?? 0;
  if (p < ALPHA) {
    const dir = diff > 0 ? '高于' : '低于';
    return {
      ...t,
      verdict: 'significant',
      verdictText: `显著：转化率${dir}对照组 ${pct(Math.abs(diff))} 个百分点（p=${p < 0.0001 ? '<0.0001' : p.toFixed(4)}）`,
    };
  }
  return {
    ...t,
    verdict: 'not_significant',
    verdictText: `不显著：与对照组相差 ${pct(Math.abs(diff))} 个百分点，可能只是随机波动（p=${p.toFixed(4)}）`,
  };
}

export const CONTROL_RESULT: ZTestResult = {
  z: null,
  p: null,
  diff: null,
  ciLow: null,
  ciHigh: null,
  verdict: 'control',
  verdictText: '对照组',
};
