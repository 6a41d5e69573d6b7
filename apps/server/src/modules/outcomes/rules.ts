import { OUTCOME_LABELS, type OutcomeStatus } from '@lm/shared/outcomes';
import { daysBetween } from '@lm/shared/schemas/funnel';
import {
  OUTCOME_COUNT_KEYS,
  type OutcomeCountKey,
  type OutcomeLatency,
  PARTNER_OUTCOMES_DEFAULT_DAYS,
  PARTNER_OUTCOMES_MAX_DAYS,
} from '@lm/shared/schemas/partner-outcomes';
import { addDays } from '@lm/shared/time';

/**
 * The `p`-th percentile (0 ≤ p ≤ 1) of `sorted` (ascending), interpolated linearly between the two nearest
 * ranks as PostgreSQL's `percentile_cont` does; null for an empty list.
 */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const at = Math.min(Math.max(p, 0), 1) * (sorted.length - 1);
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  const a = sorted[lo]!;
  const b = sorted[hi]!;
  return a + (b - a) * (at - lo);
}

/**
 * Median and 90th percentile of latencies in seconds, rounded to whole seconds. Values that are not finite
 * numbers are left out; a negative one (a report received before the delivery was recorded, e.g. a lender
 * answering within the delivery call) counts as 0. Nulls when nothing is left.
 */
export function latencyFigures(seconds: readonly (number | null)[]): OutcomeLatency {
  const values = seconds
    .filter((s): s is number => typeof s === 'number' && Number.isFinite(s))
    .map((s) => Math.max(0, s))
    .sort((a, b) => a - b);
  const round = (v: number | null) => (v === null ? null : Math.round(v));
  return {
    count: values.length,
    medianSeconds: round(percentile(values, 0.5)),
    p90Seconds: round(percentile(values, 0.9)),
  };
}

/** Leads per current outcome (null: nothing reported yet) → every key in OUTCOME_COUNT_KEYS order, labelled. */
export function outcomeCounts(
  rows: readonly { outcome: OutcomeStatus | null; n: number }[],
): { key: OutcomeCountKey; label: string; count: number }[] {
  const by = new Map<OutcomeCountKey, number>();
  for (const r of rows) {
    const key = r.outcome ?? 'pending';
    by.set(key, (by.get(key) ?? 0) + r.n);
  }
  return OUTCOME_COUNT_KEYS.map((key) => ({ key, label: OUTCOME_LABELS[key], count: by.get(key) ?? 0 }));
}

export type OutcomeRange = { ok: true; from: string; to: string } | { ok: false; message: string };

/**
 * The Shanghai days a query covers: `to` defaults to today (or `from` when that is later), `from` to the
 * PARTNER_OUTCOMES_DEFAULT_DAYS − 1 days before `to`; at most PARTNER_OUTCOMES_MAX_DAYS days, `from` ≤ `to`,
 * `from` not after today.
 */
export function resolveOutcomeRange(
  input: { from?: string | undefined; to?: string | undefined },
  today: string,
): OutcomeRange {
  const to = input.to ?? (input.from && input.from > today ? input.from : today);
  const from = input.from ?? addDays(to, -(PARTNER_OUTCOMES_DEFAULT_DAYS - 1));
  const span = daysBetween(from, to);
  if (span < 1) return { ok: false, message: '结束日期不能早于开始日期' };
  if (span > PARTNER_OUTCOMES_MAX_DAYS)
    return { ok: false, message: `日期范围最多 ${PARTNER_OUTCOMES_MAX_DAYS} 天` };
  if (from > today) return { ok: false, message: '开始日期不能晚于今天' };
  return { ok: true, from, to };
}

/**
 * How a report stands among its lead's reports: `repeated` when an earlier one of the lead had the same
 * status; `late` when it moved nothing and repeats nothing (a step behind the lead's later one).
 */
export function reportKind(r: { applied: boolean; sameStatusBefore: boolean }): {
  repeated: boolean;
  late: boolean;
} {
  return { repeated: r.sameStatusBefore, late: !r.applied && !r.sameStatusBefore };
}

/**
 * The amounts of a lender's leads: `approvedFen` sums the credit limits of leads now approved or funded (a lead
 * approved, then declined, no longer counts), `fundedFen` the amounts lent on leads now funded.
 */
export function amountTotals(
  leads: readonly { outcome: OutcomeStatus | null; limitFen: number | null; amountFen: number | null }[],
): { approvedFen: number; fundedFen: number } {
  let approvedFen = 0;
  let fundedFen = 0;
  for (const l of leads) {
    if ((l.outcome === 'approved' || l.outcome === 'funded') && l.limitFen !== null)
      approvedFen += l.limitFen;
    if (l.outcome === 'funded' && l.amountFen !== null) fundedFen += l.amountFen;
  }
  return { approvedFen, fundedFen };
}
