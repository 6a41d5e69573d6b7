import { describe, expect, it } from 'vitest';
import { bookingMonth, costAt, monthLockKey, nextMonth, previousMonth, priced, ref } from './rules.ts';

describe('months', () => {
  it('next and previous month across a year', () => {
    expect(nextMonth('2026-11')).toBe('2026-12');
    expect(nextMonth('2026-12')).toBe('2027-01');
    expect(previousMonth('2027-01')).toBe('2026-12');
    expect(previousMonth('2026-10')).toBe('2026-09');
  });

  it('an open month books its own events', () => {
    expect(bookingMonth('2026-11', new Set())).toBe('2026-11');
    expect(bookingMonth('2026-11', new Set(['2026-10', '2026-12']))).toBe('2026-11');
  });

  it('a closed month sends its events to the first open month after it', () => {
    expect(bookingMonth('2026-11', new Set(['2026-11']))).toBe('2026-12');
    expect(bookingMonth('2026-11', new Set(['2026-11', '2026-12', '2027-01']))).toBe('2027-02');
  });

  it('lock keys differ per month', () => {
    expect(monthLockKey('2026-12')).toBe(202612);
    expect(monthLockKey('2027-01')).not.toBe(monthLockKey('2026-01'));
  });
});

describe('priced', () => {
  it('no price: nothing', () => {
    expect(priced(null, 1000)).toBe(0);
  });
  it('a per-event price: its amount whatever the basis', () => {
    expect(priced({ amountFen: 3500, bps: null }, null)).toBe(3500);
    expect(priced({ amountFen: 0, bps: null }, 99)).toBe(0);
  });
  it('a share: bps of the basis, rounded half away from zero', () => {
    expect(priced({ amountFen: null, bps: 150 }, 1_000_000)).toBe(15_000);
    expect(priced({ amountFen: null, bps: 1 }, 5_000)).toBe(1); // 0.5 → 1
    expect(priced({ amountFen: null, bps: 1 }, 4_999)).toBe(0);
    expect(priced({ amountFen: null, bps: 100 }, -150)).toBe(-2); // −1.5 → −2
  });
  it('a share without a basis: nothing', () => {
    expect(priced({ amountFen: null, bps: 150 }, null)).toBe(0);
  });
});

describe('references', () => {
  it('one per kind and event', () => {
    expect(ref.cpl(7)).toBe('lead:7:cpl');
    expect(ref.cpa(7)).toBe('lead:7:cpa');
    expect(ref.cps(9)).toBe('outcome:9:cps');
    expect(ref.revShare('lead:7:cpl')).toBe('rev_share:lead:7:cpl');
  });
});

describe('costAt', () => {
  const d = (iso: string) => new Date(iso);
  const rows = [
    { id: 1, effectiveFrom: d('2026-11-30T16:00:00Z') },
    { id: 2, effectiveFrom: d('2026-12-09T16:00:00Z') },
    { id: 3, effectiveFrom: d('2026-12-09T16:00:00Z') },
  ];
  it('null before the first row', () => {
    expect(costAt(rows, d('2026-11-30T15:59:59Z'))).toBeNull();
    expect(costAt([], d('2026-12-01T00:00:00Z'))).toBeNull();
  });
  it('the latest row on or before the instant; a tie goes to the later-added', () => {
    expect(costAt(rows, d('2026-11-30T16:00:00Z'))?.id).toBe(1);
    expect(costAt(rows, d('2026-12-09T15:59:59Z'))?.id).toBe(1);
    expect(costAt(rows, d('2026-12-09T16:00:00Z'))?.id).toBe(3);
    expect(costAt([...rows].reverse(), d('2027-01-01T00:00:00Z'))?.id).toBe(3);
  });
});
