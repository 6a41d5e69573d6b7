import { RETURN_REASONS } from '@lm/shared/ledger';
import { describe, expect, it } from 'vitest';
import {
  allowedReturns,
  type BookedEntry,
  disputeReasonOf,
  monthRange,
  NEGATIVE_SIGNAL_REASONS,
  type ReturnCheckInput,
  returnDeadline,
  returnRefusal,
  reversalEntries,
  reversalMonth,
  reversedFenOf,
  statusOf,
} from './rules.ts';

const DAY = 86_400_000;
const now = new Date('2026-05-20T04:00:00Z'); // 12:00 in Shanghai
const base: ReturnCheckInput = {
  now,
  deliveredAt: new Date(now.getTime() - 2 * DAY),
  windowDays: 7,
  maxRateBps: 2000,
  existing: null,
  deliveredInMonth: 10,
  returnedInMonth: 0,
};

describe('return rules (issue 48.4)', () => {
  it('a delivered lead within the window and under the rate may be returned', () => {
    expect(returnRefusal(base)).toBeNull();
  });

  it('refuses a second return whatever the first one’s status, before anything else', () => {
    for (const status of ['accepted', 'disputed', 'rejected'] as const) {
      const r = returnRefusal({ ...base, deliveredAt: null, existing: { id: 9, status } });
      expect(r?.reason).toBe('already_returned');
      expect(r?.data).toEqual({ returnId: 9, status });
      expect(r?.msg).toContain('只能退回一次');
    }
  });

  it('refuses a lead not delivered', () => {
    const r = returnRefusal({ ...base, deliveredAt: null });
    expect(r).toMatchObject({ reason: 'not_delivered', msg: expect.stringContaining('尚未成功推送') });
  });

  it('the window: exactly windowDays × 24 h after delivery is in, a millisecond later is out', () => {
    const deliveredAt = new Date(now.getTime() - 7 * DAY);
    expect(returnRefusal({ ...base, deliveredAt })).toBeNull();
    const late = new Date(deliveredAt.getTime() - 1);
    const r = returnRefusal({ ...base, deliveredAt: late });
    expect(r?.reason).toBe('window_passed');
    expect(r?.data).toMatchObject({ windowDays: 7, deadline: returnDeadline(late, 7).toISOString() });
    expect(r?.msg).toContain('7 天内可退回');
    expect(returnRefusal({ ...base, deliveredAt: late, windowDays: 8 })).toBeNull();
    expect(returnDeadline(new Date('2026-05-01T00:00:00Z'), 1).toISOString()).toBe(
      '2026-05-02T00:00:00.000Z',
    );
  });

  it('the rate: rounded down, at least one whenever it is above 0, none at 0', () => {
    expect(allowedReturns(10, 2000)).toBe(2);
    expect(allowedReturns(14, 2000)).toBe(2);
    expect(allowedReturns(15, 2000)).toBe(3);
    expect(allowedReturns(0, 2000)).toBe(1);
    expect(allowedReturns(3, 2000)).toBe(1);
    expect(allowedReturns(100, 1)).toBe(1);
    expect(allowedReturns(100, 0)).toBe(0);
    expect(allowedReturns(7, 10_000)).toBe(7);
    expect(allowedReturns(1_000_000, 2500)).toBe(250_000);
  });

  it('the rate counts this return: the allowed-th passes, the next is refused with the limit and the counts', () => {
    expect(returnRefusal({ ...base, returnedInMonth: 1 })).toBeNull();
    const r = returnRefusal({ ...base, returnedInMonth: 2 });
    expect(r?.reason).toBe('rate_exceeded');
    expect(r?.data).toEqual({ month: '2026-05', maxRateBps: 2000, delivered: 10, returned: 2, allowed: 2 });
    expect(r?.msg).toBe('超过每月最高退回率 20%：2026-05 推送的 10 条线索最多可退回 2 条，已退回 2 条');
    const zero = returnRefusal({ ...base, maxRateBps: 0 });
    expect(zero).toMatchObject({ reason: 'rate_exceeded', msg: expect.stringContaining('0%') });
    // A month with one lead (20 % of it rounds down to none): that one may still come back, a second not.
    expect(returnRefusal({ ...base, deliveredInMonth: 1 })).toBeNull();
    expect(returnRefusal({ ...base, deliveredInMonth: 1, returnedInMonth: 1 })?.reason).toBe('rate_exceeded');
    // The month named is the lead's delivery month, not the return's.
    const may = new Date('2026-05-31T15:00:00Z'); // 23:00 on 05-31 in Shanghai
    const r2 = returnRefusal({
      ...base,
      now: new Date('2026-06-02T02:00:00Z'),
      deliveredAt: may,
      returnedInMonth: 2,
    });
    expect(r2?.data).toMatchObject({ month: '2026-05' });
  });

  it('refusals come in order: twice, not delivered, window, rate', () => {
    const everything = { ...base, maxRateBps: 0, deliveredAt: new Date(0) };
    expect(returnRefusal(everything)?.reason).toBe('window_passed');
    expect(returnRefusal({ ...everything, deliveredAt: null })?.reason).toBe('not_delivered');
    expect(returnRefusal({ ...everything, existing: { id: 1, status: 'accepted' } })?.reason).toBe(
      'already_returned',
    );
  });

  it('disputed: reason other, or a lead the lender reported approved or funded; otherwise accepted', () => {
    for (const reason of RETURN_REASONS) {
      for (const outcome of [null, 'received', 'duplicate', 'declined', 'approved', 'funded']) {
        const why = disputeReasonOf(reason, outcome);
        const doubtful = reason === 'other' || outcome === 'approved' || outcome === 'funded';
        expect(why !== null, `${reason} ${outcome}`).toBe(doubtful);
        expect(statusOf(why)).toBe(doubtful ? 'disputed' : 'accepted');
      }
    }
    expect(disputeReasonOf('other', 'funded')).toBe(
      '退回原因为「其他」，需人工核实机构的说明；机构此前已报告该线索「已放款」',
    );
    expect(disputeReasonOf('fraud', 'approved')).toBe('机构此前已报告该线索「已授信」');
  });

  it('the negative signal goes for duplicate, invalid phone and fraud only', () => {
    expect([...NEGATIVE_SIGNAL_REASONS].sort()).toEqual(['duplicate', 'fraud', 'invalid_phone']);
  });

  it('a Shanghai month’s instants', () => {
    expect(monthRange('2026-05')).toEqual({
      from: new Date('2026-04-30T16:00:00Z'),
      to: new Date('2026-05-31T16:00:00Z'),
    });
    expect(monthRange('2026-12').to).toEqual(new Date('2026-12-31T16:00:00Z'));
  });
});

describe('the reversal of a returned lead', () => {
  const lead = { id: 42, productId: 3, partnerId: 5, partnerCode: 'lender-a', channelCode: 'demo' };
  const entry = (e: Partial<BookedEntry>): BookedEntry => ({
    kind: 'lead_revenue',
    partyType: 'lender',
    partyId: 5,
    partyCode: 'lender-a',
    amountFen: 0,
    reference: 'lead:42:cpl',
    channelCode: 'demo',
    month: '2026-05',
    ...e,
  });

  it('reverses the sum of the lead’s revenue on the lender, against the month its delivery was booked in', () => {
    const out = reversalEntries({
      returnId: 7,
      reason: 'duplicate',
      at: new Date('2026-05-31T16:30:00Z'), // 2026-06-01 00:30 in Shanghai
      lead,
      booked: [
        entry({ amountFen: 3500 }),
        entry({ amountFen: 12000, reference: 'lead:42:cpa' }),
        entry({ amountFen: 2469, reference: 'outcome:9:cps' }),
      ],
    });
    expect(out).toEqual([
      {
        kind: 'return',
        partyType: 'lender',
        partyId: 5,
        partyCode: 'lender-a',
        eventAt: new Date('2026-05-31T16:30:00Z'),
        eventMonth: '2026-05',
        amountFen: -17969,
        reference: 'return:7',
        model: null,
        basisFen: 17969,
        quantity: 1,
        leadId: 42,
        productId: 3,
        channelCode: 'demo',
        reason: 'duplicate',
      },
    ]);
    expect(reversedFenOf(out[0]!.amountFen)).toBe(17969);
  });

  it('the month: the delivery’s booked month, else the first revenue’s, else the return’s own', () => {
    const at = new Date('2026-07-01T02:00:00Z');
    expect(
      reversalMonth([entry({ reference: 'lead:42:cpa', month: '2026-06' }), entry({ month: '2026-04' })], at),
    ).toBe('2026-04');
    expect(reversalMonth([entry({ reference: 'outcome:3:cps', month: '2026-06' })], at)).toBe('2026-06');
    expect(reversalMonth([entry({ kind: 'channel_cost', partyType: 'channel', month: '2026-02' })], at)).toBe(
      '2026-07',
    );
    expect(reversalMonth([], at)).toBe('2026-07');
  });

  it('a lead that earned nothing still books its return (0, counted), never −0', () => {
    const out = reversalEntries({ returnId: 1, reason: 'fraud', at: new Date(), lead, booked: [entry({})] });
    expect(out).toHaveLength(1);
    expect(Object.is(out[0]!.amountFen, 0)).toBe(true);
    expect(Object.is(reversedFenOf(0), 0)).toBe(true);
    expect(reversedFenOf(null)).toBeNull();
  });

  it('reverses the revenue share paid on the lead to its channel; other channel costs stay', () => {
    const out = reversalEntries({
      returnId: 8,
      reason: 'invalid_phone',
      at: new Date('2026-05-20T00:00:00Z'),
      lead,
      booked: [
        entry({ amountFen: 3500 }),
        entry({
          kind: 'channel_cost',
          partyType: 'channel',
          partyId: 11,
          partyCode: 'demo',
          amountFen: 350,
          reference: 'rev_share:lead:42:cpl',
        }),
        entry({
          kind: 'channel_cost',
          partyType: 'channel',
          partyId: 11,
          partyCode: 'demo',
          amountFen: 1200,
          reference: 'rev_share:lead:42:cpa',
        }),
        entry({
          kind: 'channel_cost',
          partyType: 'channel',
          partyId: 11,
          amountFen: 99,
          reference: 'cpa_lead:42',
        }),
      ],
    });
    expect(out.map((e) => [e.kind, e.partyType, e.partyId, e.amountFen, e.reference, e.model])).toEqual([
      ['return', 'lender', 5, -3500, 'return:8', null],
      ['channel_cost', 'channel', 11, -1550, 'return:8:rev_share', 'rev_share'],
    ]);
  });

  it('a second channel’s share (never expected) gets a reference of its own', () => {
    const share = (partyId: number) =>
      entry({
        kind: 'channel_cost',
        partyType: 'channel',
        partyId,
        amountFen: 10,
        reference: `rev_share:x${partyId}`,
      });
    const out = reversalEntries({
      returnId: 2,
      reason: 'other',
      at: new Date(),
      lead,
      booked: [share(1), share(2)],
    });
    expect(out.map((e) => e.reference)).toEqual(['return:2', 'return:2:rev_share:1', 'return:2:rev_share:2']);
  });
});
