/**
 * ROI arithmetic (issue 48.6, docs/money.md "ROI (48.6)"), pure: integer division rounded half away from zero,
 * the largest-remainder split of a channel-day's cost over its skins, and the rows (per channel, Shanghai day or
 * skin) from the facts the repository reads. Money is integer fen throughout; ratios are computed with BigInt.
 */
import type { FunnelArmsData, FunnelViewStep } from '@lm/shared/schemas/funnel';
import type { RoiAbTest, RoiGroupBy, RoiRow, RoiTotals } from '@lm/shared/schemas/roi';

/**
 * What the repository reads, each in one cell (channel, Shanghai day, skin): volumes from the event tables and
 * money from the ledger by the entries' event day. `skin` is the click's or the person's `ab_test_type` as
 * stored (null: none — the channel's own skin applies, see `resolveSkin`); a cost has no skin (it is split).
 */
export interface RoiFact {
  channelCode: string | null;
  day: string;
  skin: number | null;
  clicks?: number;
  registrations?: number;
  leads?: number;
  approved?: number;
  funded?: number;
  returns?: number;
  revenueFen?: number;
  returnedFen?: number;
  costFen?: number;
}

export const VOLUMES = ['clicks', 'registrations', 'leads', 'approved', 'funded', 'returns'] as const;
export const SUMMED_FEN = ['costFen', 'revenueFen', 'returnedFen'] as const;
type Volume = (typeof VOLUMES)[number];
type SummedFen = (typeof SUMMED_FEN)[number];
export type RoiSums = Record<Volume | SummedFen, number>;

/** The A/B page's step whose significance the ROI page shows beside revenue per visitor: 授权 (a lead). */
export const ROI_AB_STEP: FunnelViewStep = 'authorize';

const ZERO = BigInt(0);
const ONE = BigInt(1);
const TWO = BigInt(2);

/** n / d rounded half away from zero (1.5 → 2, −1.5 → −2), exact with BigInt; d ≠ 0. */
export function divideRounded(n: number | bigint, d: number | bigint): number {
  const num = BigInt(n);
  const den = BigInt(d);
  if (den === ZERO) throw new RangeError('division by zero');
  const negative = num < ZERO !== den < ZERO && num !== ZERO;
  const a = num < ZERO ? -num : num;
  const b = den < ZERO ? -den : den;
  let q = a / b;
  if ((a % b) * TWO >= b) q += ONE;
  const result = Number(negative ? -q : q);
  if (!Number.isSafeInteger(result)) throw new RangeError(`quotient out of range: ${n} / ${d}`);
  return result === 0 ? 0 : result; // never -0
}

/** ROI in basis points: marginFen × 10 000 / costFen, half away from zero; null without cost. */
export function roiBpsOf(marginFen: number, costFen: number): number | null {
  if (costFen === 0) return null;
  return divideRounded(BigInt(marginFen) * BigInt(10_000), costFen);
}

/** Cost per lead in fen, half away from zero; null without leads. */
export function costPerLeadOf(costFen: number, leads: number): number | null {
  return leads === 0 ? null : divideRounded(costFen, leads);
}

/** Net revenue per visitor (counted click) in fen, half away from zero; null without clicks. */
export function revenuePerVisitorOf(revenueFen: number, returnedFen: number, clicks: number): number | null {
  return clicks === 0 ? null : divideRounded(revenueFen - returnedFen, clicks);
}

/**
 * Splits an integer `total` over `weights` (non-negative integers, not all zero) in proportion, so that the
 * parts are integers summing exactly to `total` (largest remainder / Hamilton): each part first gets the whole
 * part of its exact share, then the units left go one each to the largest remainders — on a tie the larger
 * weight, then the earlier one. A negative total is split as its magnitude and negated, so −x splits as the
 * mirror of x. Exact with BigInt for any safe amount and weight.
 */
export function largestRemainder(total: number, weights: readonly number[]): number[] {
  if (!Number.isSafeInteger(total)) throw new RangeError(`not an integer amount: ${total}`);
  if (weights.some((w) => !Number.isSafeInteger(w) || w < 0))
    throw new RangeError('weights must be non-negative integers');
  const sum = weights.reduce((a, w) => a + BigInt(w), ZERO);
  if (sum === ZERO) throw new RangeError('nothing to split by: every weight is zero');
  const negative = total < 0;
  const magnitude = BigInt(negative ? -total : total);
  const parts = weights.map((w, i) => {
    const exact = magnitude * BigInt(w);
    return { i, w, whole: exact / sum, remainder: exact % sum };
  });
  let left = magnitude - parts.reduce((a, p) => a + p.whole, ZERO);
  const order = [...parts].sort((a, b) =>
    a.remainder !== b.remainder ? (a.remainder > b.remainder ? -1 : 1) : b.w - a.w || a.i - b.i,
  );
  for (const p of order) {
    if (left === ZERO) break;
    p.whole += ONE;
    left -= ONE;
  }
  return parts.map((p) => {
    const n = Number(p.whole);
    return negative && n !== 0 ? -n : n;
  });
}

/** A fact's skin: its own, else the channel's (from the channel's flags); null when neither is known. */
export type DefaultSkinOf = (channelCode: string | null) => number | null;
export function resolveSkin(fact: Pick<RoiFact, 'channelCode' | 'skin'>, defaultSkinOf: DefaultSkinOf) {
  return fact.skin ?? defaultSkinOf(fact.channelCode);
}

const cellKey = (code: string | null, day: string) => `${code ?? ''}\u0000${day}`;

/**
 * Puts every fact in its resolved skin and splits each channel-day's cost over the skins of that channel-day's
 * clicks (largestRemainder by clicks per skin); a channel-day without clicks keeps its cost whole on the
 * channel's own skin. The cost facts come back one per (channel, day, skin) with a non-zero part.
 */
export function allocateCosts(facts: readonly RoiFact[], defaultSkinOf: DefaultSkinOf): RoiFact[] {
  const out: RoiFact[] = [];
  const costs = new Map<string, { channelCode: string | null; day: string; fen: number }>();
  const clicks = new Map<string, Map<number | null, number>>();
  for (const f of facts) {
    const skin = resolveSkin(f, defaultSkinOf);
    const { costFen, ...rest } = f;
    if (costFen) {
      const k = cellKey(f.channelCode, f.day);
      const c = costs.get(k) ?? { channelCode: f.channelCode, day: f.day, fen: 0 };
      c.fen += costFen;
      costs.set(k, c);
    }
    if (f.clicks) {
      const k = cellKey(f.channelCode, f.day);
      const bySkin = clicks.get(k) ?? new Map<number | null, number>();
      bySkin.set(skin, (bySkin.get(skin) ?? 0) + f.clicks);
      clicks.set(k, bySkin);
    }
    out.push({ ...rest, skin });
  }
  for (const [k, c] of costs) {
    if (c.fen === 0) continue;
    const bySkin = [...(clicks.get(k) ?? new Map<number | null, number>())].sort(
      ([a], [b]) => (a ?? Number.MAX_SAFE_INTEGER) - (b ?? Number.MAX_SAFE_INTEGER),
    );
    if (bySkin.length === 0) {
      out.push({
        channelCode: c.channelCode,
        day: c.day,
        skin: defaultSkinOf(c.channelCode),
        costFen: c.fen,
      });
      continue;
    }
    const parts = largestRemainder(
      c.fen,
      bySkin.map(([, n]) => n),
    );
    bySkin.forEach(([skin], i) => {
      if (parts[i]) out.push({ channelCode: c.channelCode, day: c.day, skin, costFen: parts[i] });
    });
  }
  return out;
}

export const emptySums = (): RoiSums => ({
  clicks: 0,
  registrations: 0,
  leads: 0,
  approved: 0,
  funded: 0,
  returns: 0,
  costFen: 0,
  revenueFen: 0,
  returnedFen: 0,
});

function addInto(sums: RoiSums, f: Partial<RoiSums>): void {
  for (const k of [...VOLUMES, ...SUMMED_FEN]) sums[k] += f[k] ?? 0;
}

/** A row's figures from its sums: margin, ROI, cost per lead (and, for skins, revenue per visitor). */
export function figuresOf(s: RoiSums, perVisitor: boolean): RoiTotals {
  const marginFen = s.revenueFen - s.returnedFen - s.costFen;
  return {
    ...s,
    marginFen,
    roiBps: roiBpsOf(marginFen, s.costFen),
    costPerLeadFen: costPerLeadOf(s.costFen, s.leads),
    ...(perVisitor
      ? { revenuePerVisitorFen: revenuePerVisitorOf(s.revenueFen, s.returnedFen, s.clicks) }
      : {}),
  };
}

export interface AggregateOptions {
  groupBy: RoiGroupBy;
  defaultSkinOf: DefaultSkinOf;
  /** Channels' names by code. */
  channelNames: ReadonlyMap<string, string>;
}

export const skinLabel = (skin: number | null) => (skin === null ? '未知皮肤' : `skin${skin}`);
const NO_CHANNEL_LABEL = '（无渠道）';

function keyOf(f: RoiFact, groupBy: RoiGroupBy): string {
  if (groupBy === 'channel') return f.channelCode ?? '';
  if (groupBy === 'day') return f.day;
  return f.skin === null ? '' : String(f.skin);
}

function compareKeys(groupBy: RoiGroupBy) {
  if (groupBy !== 'skin') return (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const n = (k: string) => (k === '' ? Number.MAX_SAFE_INTEGER : Number(k));
  return (a: string, b: string) => n(a) - n(b);
}

const isZero = (s: RoiSums) => [...VOLUMES, ...SUMMED_FEN].every((k) => s[k] === 0);

/**
 * The ROI rows: facts (skins resolved, costs split — `allocateCosts`) summed per channel code ('' for none), per
 * Shanghai day or per skin ('' for unknown); rows whose every figure is zero left out; sorted by key (days and
 * codes as text, skins as numbers, unknown last). The totals are the integer sums of the rows with their ratios
 * computed again from the sums (never summed ratios).
 */
export function aggregateRoi(
  facts: readonly RoiFact[],
  o: AggregateOptions,
): { rows: RoiRow[]; totals: RoiTotals } {
  const perVisitor = o.groupBy === 'skin';
  const groups = new Map<string, RoiSums>();
  for (const f of allocateCosts(facts, o.defaultSkinOf)) {
    const key = keyOf(f, o.groupBy);
    const sums = groups.get(key) ?? emptySums();
    addInto(sums, f);
    groups.set(key, sums);
  }
  const total = emptySums();
  const rows: RoiRow[] = [];
  for (const key of [...groups.keys()].sort(compareKeys(o.groupBy))) {
    const sums = groups.get(key)!;
    if (isZero(sums)) continue;
    addInto(total, sums);
    const label =
      o.groupBy === 'channel'
        ? key === ''
          ? NO_CHANNEL_LABEL
          : o.channelNames.get(key)
        : o.groupBy === 'skin'
          ? skinLabel(key === '' ? null : Number(key))
          : undefined;
    rows.push({ key, ...(label === undefined ? {} : { label }), ...figuresOf(sums, perVisitor) });
  }
  return { rows, totals: figuresOf(total, perVisitor) };
}

const AMOUNT_FIELDS = [
  'costFen',
  'revenueFen',
  'returnedFen',
  'marginFen',
  'roiBps',
  'costPerLeadFen',
  'revenuePerVisitorFen',
] as const;

/** The row or arm without any amount (a viewer's): the fields are absent, not zero. */
export function withoutAmounts<T extends object>(row: T): T {
  const out = { ...row } as Record<string, unknown>;
  for (const k of AMOUNT_FIELDS) delete out[k];
  return out as T;
}

/** Whether a channel runs a skin A/B test: at least two configured arms with traffic. */
export function runsAbTest(skinArms: readonly { skin: number; weight: number }[] | null): boolean {
  return (skinArms ?? []).filter((a) => a.weight > 0).length >= 2;
}

/**
 * A channel's A/B arms for the ROI page: the A/B page's arms (FunnelService.arms — its order, control and
 * z-test of ROI_AB_STEP against the control, reused as it is) with each arm's revenue and revenue per visitor
 * from this channel's facts in the arm's skin.
 */
export function abTestOf(
  name: string,
  arms: FunnelArmsData,
  channelFacts: readonly RoiFact[],
  defaultSkinOf: DefaultSkinOf,
  step: FunnelViewStep = ROI_AB_STEP,
): RoiAbTest {
  const money = new Map<number | null, { revenueFen: number; returnedFen: number }>();
  for (const f of channelFacts) {
    const skin = resolveSkin(f, defaultSkinOf);
    const m = money.get(skin) ?? { revenueFen: 0, returnedFen: 0 };
    m.revenueFen += f.revenueFen ?? 0;
    m.returnedFen += f.returnedFen ?? 0;
    money.set(skin, m);
  }
  let stepLabel: string = step;
  const out = arms.arms.map((arm) => {
    const base = arm.steps.find((s) => s.step === arms.baseStep);
    const at = arm.steps.find((s) => s.step === step);
    if (at) stepLabel = at.label;
    const visitors = base?.count ?? 0;
    const m = money.get(arm.skin) ?? { revenueFen: 0, returnedFen: 0 };
    return {
      skin: arm.skin,
      isControl: arm.isControl,
      weight: arm.weight,
      visitors,
      revenueFen: m.revenueFen,
      returnedFen: m.returnedFen,
      revenuePerVisitorFen: revenuePerVisitorOf(m.revenueFen, m.returnedFen, visitors),
      count: at?.count ?? 0,
      rate: at?.rate ?? null,
      test: at?.test ?? NO_TEST,
    };
  });
  return {
    adChannelCode: arms.adChannelCode,
    name,
    step,
    stepLabel,
    minSample: arms.minSample,
    arms: out,
  };
}

const NO_TEST: RoiAbTest['arms'][number]['test'] = {
  z: null,
  p: null,
  diff: null,
  ciLow: null,
  ciHigh: null,
  verdict: 'too_small',
  verdictText: '暂无数据',
};
