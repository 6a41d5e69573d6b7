/**
 * The ledger's rules (issue 48.3, ADR 073), pure: which Shanghai month an entry is booked in, the lock that
 * serialises a month's postings against its close, and what a lead's events earn at the prices in force.
 */
import { bpsOf } from '@lm/shared/money';

/** `YYYY-MM` → the month after it. */
export function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

/** `YYYY-MM` → the month before it. */
export function previousMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

/**
 * The month an entry of an event in `eventMonth` is booked in: that month, or — when it is closed — the first
 * open month after it (issue 48.5: "later events land in the next open month as adjustments").
 */
export function bookingMonth(eventMonth: string, closed: ReadonlySet<string>): string {
  let m = eventMonth;
  while (closed.has(m)) m = nextMonth(m);
  return m;
}

/**
 * The advisory-lock key of a month (two int4 keys: a class of our own and YYYYMM). Postings take it shared,
 * a close exclusive, both until their transaction ends: a close waits for the postings in flight and every
 * posting after it sees the close.
 */
export const LEDGER_LOCK_CLASS = 48_073;
/**
 * The advisory-lock class of a lender (key: its partner id): a return holds it exclusively while it decides
 * and reverses; the sweep holds it shared while it books the lender's lead revenue and checks for a return
 * first — so revenue is either booked before a return (and reversed by it) or not at all after one.
 */
export const LENDER_LOCK_CLASS = 48_004;
export function monthLockKey(month: string): number {
  return Number(month.replace('-', ''));
}

/** What a price row says: fen per event (cpl, cpa, cpc, cpa_*) or a share in bps (cps, rev_share). */
export interface PriceValue {
  amountFen: number | null;
  bps: number | null;
}

/**
 * What one event earns (or costs) at a price: its amount in fen for a per-event price, `bpsOf(basis, bps)` for
 * a share (rounded once, half away from zero); 0 without a price.
 */
export function priced(price: PriceValue | null, basisFen: number | null): number {
  if (!price) return 0;
  if (price.bps !== null) return basisFen === null ? 0 : bpsOf(basisFen, price.bps);
  return price.amountFen ?? 0;
}

/** Ledger references, one per kind and event (the unique key a retried posting meets). */
export const ref = {
  cpl: (leadId: number) => `lead:${leadId}:cpl`,
  cpa: (leadId: number) => `lead:${leadId}:cpa`,
  cps: (outcomeId: number) => `outcome:${outcomeId}:cps`,
  revShare: (lenderReference: string) => `rev_share:${lenderReference}`,
};

/** What `costAt` needs of a channel cost row. */
export interface CostRow {
  id: number;
  effectiveFrom: Date;
}

/**
 * The channel cost row in force at `at` (issue 48.2): one model at a time per channel — the row with the latest
 * `effectiveFrom` ≤ `at`, whatever its model (the later-added wins a tie); null before the first.
 */
export function costAt<T extends CostRow>(rows: readonly T[], at: Date): T | null {
  let best: T | null = null;
  const t = at.getTime();
  for (const r of rows) {
    const from = r.effectiveFrom.getTime();
    if (from > t) continue;
    if (
      best === null ||
      from > best.effectiveFrom.getTime() ||
      (from === best.effectiveFrom.getTime() && r.id > best.id)
    )
      best = r;
  }
  return best;
}
