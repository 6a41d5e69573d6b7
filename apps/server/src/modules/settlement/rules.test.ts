import type { Party } from '@lm/shared/schemas/settlement';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  adjustmentMonthRefusal,
  closeRefusal,
  csvCell,
  type EntryFacts,
  isLate,
  partyKey,
  statementsCsv,
  statementsOf,
  totalsByParty,
  volumesByChannel,
  withoutAmounts,
} from './rules.ts';

const NOV = new Date('2026-11-10T04:00:00Z');
const OCT = new Date('2026-10-20T04:00:00Z');

function entry(over: Partial<EntryFacts>): EntryFacts {
  return {
    kind: 'lead_revenue',
    partyType: 'lender',
    partyId: 1,
    partyCode: 'bank',
    amountFen: 0,
    model: 'cpl',
    channelCode: null,
    eventAt: NOV,
    eventMonth: '2026-11',
    month: '2026-11',
    ...over,
  };
}

const bank: Party = { type: 'lender', id: 1, code: 'bank', name: '银行' };
const ads: Party = { type: 'channel', id: 7, code: 'ads', name: '广告渠道' };
const parties = new Map([
  [partyKey('lender', 1), bank],
  [partyKey('channel', 7), ads],
]);

describe('totalsByParty', () => {
  it('counts a lender’s events by model and sums each kind; net = every entry', () => {
    const t = totalsByParty([
      entry({ amountFen: 3_500, model: 'cpl' }),
      entry({ amountFen: 3_500, model: 'cpl' }),
      entry({ amountFen: 10_000, model: 'cpa' }),
      entry({ amountFen: 15_000, model: 'cps' }),
      entry({ kind: 'return', amountFen: -3_500, model: 'cpl' }),
      entry({ kind: 'adjustment', amountFen: -200, model: null }),
      entry({ kind: 'payout', amountFen: -20_000, model: null }),
    ]).get('lender:1');
    expect(t).toMatchObject({
      leads: 2,
      approved: 1,
      funded: 1,
      returned: 1,
      entries: 7,
      lateEntries: 0,
      revenueFen: 32_000,
      returnedFen: 3_500,
      costFen: 0,
      adjustmentFen: -200,
      payoutFen: 20_000,
      netFen: 32_000 - 3_500 - 200 - 20_000,
    });
  });

  it('a channel’s cost, payout and adjustment', () => {
    const base = { partyType: 'channel' as const, partyId: 7, partyCode: 'ads' };
    const t = totalsByParty([
      entry({ ...base, kind: 'channel_cost', amountFen: 500, model: 'cpc' }),
      entry({ ...base, kind: 'channel_cost', amountFen: 1_500, model: 'rev_share' }),
      entry({ ...base, kind: 'payout', amountFen: -1_000, model: null }),
      entry({ ...base, kind: 'adjustment', amountFen: 50, model: null }),
    ]).get('channel:7');
    expect(t).toMatchObject({ costFen: 2_000, payoutFen: 1_000, adjustmentFen: 50, netFen: 1_050, leads: 0 });
  });

  it('an entry of an earlier (closed) month booked here is late', () => {
    expect(isLate({ eventMonth: '2026-10', month: '2026-11' })).toBe(true);
    expect(isLate({ eventMonth: '2026-11', month: '2026-11' })).toBe(false);
    // A return made in November of a lead charged in October (closed): late, whatever its instant.
    expect(isLate({ eventMonth: '2026-10', month: '2026-11' })).toBe(true);
    expect(
      totalsByParty([entry({ eventAt: OCT, eventMonth: '2026-10' }), entry({})]).get('lender:1')?.lateEntries,
    ).toBe(1);
  });
});

describe('volumesByChannel', () => {
  it('counts the lender events of the people a channel brought, by their channel', () => {
    const v = volumesByChannel([
      entry({ channelCode: 'ads', model: 'cpl' }),
      entry({ channelCode: 'ads', model: 'cpa' }),
      entry({ channelCode: 'ads', kind: 'return' }),
      entry({ channelCode: 'other', model: 'cpl' }),
      entry({ channelCode: null, model: 'cpl' }),
    ]);
    expect(v.get('ads')).toEqual({ leads: 1, approved: 1, funded: 0, returned: 1 });
    expect(v.get('other')).toEqual({ leads: 1, approved: 0, funded: 0, returned: 0 });
    expect(v.size).toBe(2);
  });
});

describe('statementsOf', () => {
  it('lenders first then channels; a channel gets its people’s counts and its traffic, no lender money', () => {
    const list = statementsOf({
      entries: [
        entry({ amountFen: 3_500, channelCode: 'ads' }),
        entry({
          partyType: 'channel',
          partyId: 7,
          partyCode: 'ads',
          kind: 'channel_cost',
          amountFen: 800,
          model: 'rev_share',
        }),
      ],
      parties,
      alsoListed: [],
      traffic: new Map([['ads', { clicks: 40, registrations: 5 }]]),
      status: 'open',
    });
    expect(list.map((s) => s.party.code)).toEqual(['bank', 'ads']);
    expect(list[0]).toMatchObject({
      party: bank,
      leads: 1,
      revenueFen: 3_500,
      netFen: 3_500,
      status: 'open',
    });
    expect(list[0]).not.toHaveProperty('clicks');
    expect(list[1]).toMatchObject({
      party: ads,
      leads: 1,
      clicks: 40,
      registrations: 5,
      revenueFen: 0,
      costFen: 800,
      netFen: 800,
    });
  });

  it('a listed party without entries shows zeros; an unknown party is named by its code', () => {
    const list = statementsOf({
      entries: [entry({ partyId: 99, partyCode: 'gone', amountFen: 1 })],
      parties,
      alsoListed: [partyKey('channel', 7)],
      traffic: new Map(),
      status: 'closed',
    });
    expect(list.map((s) => [s.party.code, s.party.name, s.netFen, s.status])).toEqual([
      ['gone', 'gone', 1, 'closed'],
      ['ads', '广告渠道', 0, 'closed'],
    ]);
  });

  it('a viewer’s statement has no amount field at all', () => {
    const [s] = statementsOf({
      entries: [entry({ amountFen: 3_500 })],
      parties,
      alsoListed: [],
      traffic: new Map(),
      status: 'open',
    });
    const v = withoutAmounts(s!);
    for (const k of ['revenueFen', 'returnedFen', 'costFen', 'adjustmentFen', 'payoutFen', 'netFen'])
      expect(v).not.toHaveProperty(k);
    expect(v).toMatchObject({ leads: 1, entries: 1 });
  });
});

describe('property: a statement is the sum of its entries', () => {
  const kinds = ['lead_revenue', 'return', 'channel_cost', 'payout', 'adjustment'] as const;
  const arbEntry = fc
    .record({
      kind: fc.constantFrom(...kinds),
      partyType: fc.constantFrom('lender' as const, 'channel' as const),
      partyId: fc.integer({ min: 1, max: 4 }),
      amountFen: fc.integer({ min: -1_000_000_000_000, max: 1_000_000_000_000 }),
      model: fc.constantFrom('cpl', 'cpa', 'cps', 'cpc', null),
      channelCode: fc.constantFrom('c1', 'c2', null),
      late: fc.boolean(),
    })
    .map(
      (r): EntryFacts => ({
        kind: r.kind,
        partyType: r.partyType,
        partyId: r.partyId,
        partyCode: `${r.partyType}-${r.partyId}`,
        amountFen: r.amountFen,
        model: r.model,
        channelCode: r.partyType === 'lender' ? r.channelCode : null,
        eventAt: r.late ? OCT : NOV,
        eventMonth: r.late ? '2026-10' : '2026-11',
        month: '2026-11',
      }),
    );

  it('each statement’s netFen equals the sum of its party’s entries; all statements sum to all entries', () => {
    fc.assert(
      fc.property(fc.array(arbEntry, { maxLength: 60 }), (entries) => {
        const list = statementsOf({
          entries,
          parties: new Map(),
          alsoListed: [],
          traffic: new Map(),
          status: 'open',
        });
        let all = 0;
        for (const s of list) {
          const own = entries.filter((e) => e.partyType === s.party.type && e.partyId === s.party.id);
          const sum = own.reduce((a, e) => a + e.amountFen, 0);
          expect(s.netFen).toBe(sum);
          expect(s.entries).toBe(own.length);
          // The kinds add up to the net (returns and payouts shown as positive amounts).
          expect(
            (s.revenueFen ?? 0) -
              (s.returnedFen ?? 0) +
              (s.costFen ?? 0) +
              (s.adjustmentFen ?? 0) -
              (s.payoutFen ?? 0),
          ).toBe(sum);
          all += s.netFen ?? 0;
        }
        expect(all).toBe(entries.reduce((a, e) => a + e.amountFen, 0));
        // Every party with an entry has exactly one statement.
        const keys = new Set(entries.map((e) => partyKey(e.partyType, e.partyId)));
        expect(list.length).toBe(keys.size);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('months', () => {
  it('only a month that has ended may be closed', () => {
    expect(closeRefusal('2026-10', '2026-11')).toBeNull();
    expect(closeRefusal('2025-01', '2026-11')).toBeNull();
    expect(closeRefusal('2026-11', '2026-11')).toMatch(/本月/);
    expect(closeRefusal('2026-12', '2026-11')).toMatch(/尚未开始/);
  });
  it('an adjustment goes into a started, open month', () => {
    expect(adjustmentMonthRefusal('2026-11', '2026-11', false)).toBeNull();
    expect(adjustmentMonthRefusal('2026-10', '2026-11', false)).toBeNull();
    expect(adjustmentMonthRefusal('2026-10', '2026-11', true)).toMatch(/已关账/);
    expect(adjustmentMonthRefusal('2026-12', '2026-11', false)).toMatch(/尚未开始/);
  });
});

describe('CSV', () => {
  const [s1, s2] = statementsOf({
    entries: [
      entry({ amountFen: 123_456 }),
      entry({ partyType: 'channel', partyId: 7, partyCode: 'ads', kind: 'channel_cost', amountFen: -5 }),
    ],
    parties: new Map([
      [partyKey('lender', 1), { ...bank, name: '=银行, "甲"' }],
      [partyKey('channel', 7), ads],
    ]),
    alsoListed: [],
    traffic: new Map(),
    status: 'closed',
  });

  it('BOM, Chinese headers, yuan with two decimals, quoting and formula protection, CRLF', () => {
    const csv = statementsCsv([s1!, s2!], true);
    expect(
      csv.startsWith('\uFEFF类型,编码,名称,状态,点击,注册,线索,退回,授信,放款,分录数,线索收入（元）'),
    ).toBe(true);
    const lines = csv.slice(1).split('\r\n');
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe('');
    expect(lines[1]).toBe(
      `机构,bank,"'=银行, ""甲""",已关账,,,1,0,0,0,1,1234.56,0.00,0.00,0.00,0.00,1234.56`,
    );
    expect(lines[2]).toBe('渠道,ads,广告渠道,已关账,0,0,0,0,0,0,1,0.00,0.00,-0.05,0.00,0.00,-0.05');
  });

  it('without amounts: no amount column', () => {
    const csv = statementsCsv([withoutAmounts(s1!)], false);
    expect(csv).not.toMatch(/元/);
    expect(csv.split('\r\n')[0]!.split(',')).toHaveLength(11);
  });

  it('cells', () => {
    expect(csvCell(null)).toBe('');
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell('-1.50')).toBe('-1.50');
    expect(csvCell('@x')).toBe("'@x");
    expect(csvCell('a\nb')).toBe('"a\nb"');
  });
});
