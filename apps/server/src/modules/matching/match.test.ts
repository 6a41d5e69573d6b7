import { checkIdCard, idCardCheckChar } from '@lm/shared/validators/id-card';
import { describe, expect, it } from 'vitest';
import { SAMPLE_PROFILE, SAMPLE_TERMS } from './fixtures.ts';
import { match } from './match.ts';
import type {
  Counters,
  History,
  MatchOptions,
  MatchResult,
  Product,
  ProductRules,
  Profile,
  ReasonCode,
} from './types.ts';

/** A Shanghai wall-clock instant. */
const sh = (local: string) => new Date(`${local}+08:00`);
const now = sh('2026-11-22T12:00:00');
const withCheck = (first17: string) => first17 + idCardCheckChar(first17);
/** A valid ID born on `yyyymmdd`. */
const idBorn = (yyyymmdd: string) => withCheck(`110105${yyyymmdd}001`);

const profile: Profile = SAMPLE_PROFILE;

let seq = 0;
function product(over: Partial<Product> = {}, rules: ProductRules = {}): Product {
  seq += 1;
  const id = over.id ?? `p${String(seq).padStart(3, '0')}`;
  return {
    id,
    productName: `产品${id}`,
    partnerId: `L-${id}`,
    partnerLegalName: '示例消费金融有限公司',
    ...SAMPLE_TERMS,
    aprBps: 1800,
    status: 'published',
    activeHours: null,
    dailyCap: 100,
    totalCap: 10_000,
    priority: 0,
    priceFen: 3000,
    ...over,
    rules: over.rules ?? rules,
  };
}

const noHistory: History = { applications: [] };

function run(
  products: Product[],
  o: {
    profile?: Partial<Profile>;
    counters?: Counters;
    history?: History;
    options?: Partial<MatchOptions>;
  } = {},
): MatchResult {
  return match({ ...profile, ...o.profile }, products, o.counters ?? {}, o.history ?? noHistory, {
    now,
    ...o.options,
  });
}

/** Reason codes of the single product given, or 'eligible'. */
function verdict(p: Product, o: Parameters<typeof run>[1] = {}): ReasonCode[] | 'eligible' {
  const r = run([p], o);
  if (r.eligible.length === 1) return 'eligible';
  return r.excluded[0]!.reasons.map((x) => x.code);
}

describe('match: a product that satisfies everything', () => {
  it('is eligible, with the rules it satisfied explained', () => {
    const p = product(
      {},
      {
        citiesIn: ['440000'],
        ageMin: 22,
        ageMax: 55,
        amountMinFen: 100_000,
        amountMaxFen: 20_000_000,
        jobs: ['employee'],
        requireSocialSecurity: true,
        requireHousingFund: true,
        requireInsurance: true,
        requireHouse: true,
        requireCar: true,
        sesameMin: '600to650',
        creditRecord: ['good', 'none'],
      },
    );
    const r = run([p]);
    expect(r.excluded).toEqual([]);
    expect(r.eligible).toHaveLength(1);
    expect(r.eligible[0]!.rank).toBe(1);
    expect(r.eligible[0]!.product).toBe(p);
    expect(r.eligible[0]!.matched.map((m) => m.rule)).toEqual([
      'city',
      'age',
      'amount',
      'job',
      'socialSecurity',
      'housingFund',
      'insurance',
      'house',
      'car',
      'sesame',
      'creditRecord',
    ]);
    expect(r.eligible[0]!.matched.every((m) => m.text.length > 0)).toBe(true);
  });
  it('has no rule explanations when the product declares no rule', () => {
    expect(run([product()]).eligible[0]!.matched).toEqual([]);
  });
});

describe('match: gates', () => {
  it('excludes products that are not published', () => {
    expect(verdict(product({ status: 'draft' }))).toEqual(['NOT_PUBLISHED']);
    expect(verdict(product({ status: 'paused' }))).toEqual(['NOT_PUBLISHED']);
  });
  it('never offers a product that could not be published: APR 2400 allowed, 2401 refused', () => {
    expect(verdict(product({ aprBps: 2400 }))).toBe('eligible');
    expect(verdict(product({ aprBps: 2401 }))).toEqual(['NOT_PUBLISHABLE']);
    expect(verdict(product({ aprBps: null }))).toEqual(['NOT_PUBLISHABLE']);
    expect(verdict(product({ partnerLegalName: '' }))).toEqual(['NOT_PUBLISHABLE']);
    const r = run([product({ aprBps: 2401 })]);
    expect(r.excluded[0]!.reasons[0]!.text).toContain('24%');
  });

  describe('active hours (Shanghai time)', () => {
    const day = product({ activeHours: { from: '09:00', to: '21:00' } });
    const night = product({ activeHours: { from: '22:00', to: '02:00' } });
    const at = (hhmm: string) => ({ options: { now: sh(`2026-11-22T${hhmm}:00`) } });
    it('opens at `from` and closes at `to`', () => {
      expect(verdict(day, at('08:59'))).toEqual(['OUTSIDE_ACTIVE_HOURS']);
      expect(verdict(day, at('09:00'))).toBe('eligible');
      expect(verdict(day, at('20:59'))).toBe('eligible');
      expect(verdict(day, at('21:00'))).toEqual(['OUTSIDE_ACTIVE_HOURS']);
    });
    it('spans midnight when from > to', () => {
      expect(verdict(night, at('21:59'))).toEqual(['OUTSIDE_ACTIVE_HOURS']);
      expect(verdict(night, at('22:00'))).toBe('eligible');
      expect(verdict(night, at('23:59'))).toBe('eligible');
      expect(verdict(night, at('00:00'))).toBe('eligible');
      expect(verdict(night, at('01:59'))).toBe('eligible');
      expect(verdict(night, at('02:00'))).toEqual(['OUTSIDE_ACTIVE_HOURS']);
      expect(verdict(night, at('12:00'))).toEqual(['OUTSIDE_ACTIVE_HOURS']);
    });
    it('uses Shanghai, not UTC, wall-clock time', () => {
      // 2026-11-22T01:30Z is 09:30 in Shanghai.
      expect(verdict(day, { options: { now: new Date('2026-11-22T01:30:00Z') } })).toBe('eligible');
      // 2026-11-22T13:30Z is 21:30 in Shanghai.
      expect(verdict(day, { options: { now: new Date('2026-11-22T13:30:00Z') } })).toEqual([
        'OUTSIDE_ACTIVE_HOURS',
      ]);
    });
    it('is open all day without hours or with from = to', () => {
      expect(verdict(product({ activeHours: null }), at('03:00'))).toBe('eligible');
      expect(verdict(product({ activeHours: { from: '08:00', to: '08:00' } }), at('03:00'))).toBe('eligible');
    });
    it('is closed with malformed hours', () => {
      expect(verdict(product({ activeHours: { from: 'nine', to: '21:00' } }))).toEqual([
        'NOT_PUBLISHABLE',
        'OUTSIDE_ACTIVE_HOURS',
      ]);
    });
  });

  describe('caps', () => {
    const p = product({ dailyCap: 10, totalCap: 500 });
    it('refuses at exactly the daily cap, accepts one below', () => {
      expect(verdict(p, { counters: { [p.id]: { today: 9, total: 9 } } })).toBe('eligible');
      expect(verdict(p, { counters: { [p.id]: { today: 10, total: 10 } } })).toEqual(['DAILY_CAP_REACHED']);
      expect(verdict(p, { counters: { [p.id]: { today: 11, total: 11 } } })).toEqual(['DAILY_CAP_REACHED']);
    });
    it('refuses at exactly the total cap, accepts one below', () => {
      expect(verdict(p, { counters: { [p.id]: { today: 0, total: 499 } } })).toBe('eligible');
      expect(verdict(p, { counters: { [p.id]: { today: 0, total: 500 } } })).toEqual(['TOTAL_CAP_REACHED']);
    });
    it('gives both reasons when both caps are reached', () => {
      expect(verdict(p, { counters: { [p.id]: { today: 10, total: 500 } } })).toEqual([
        'DAILY_CAP_REACHED',
        'TOTAL_CAP_REACHED',
      ]);
    });
    it('treats a cap of 0 as closed, null as unlimited and a missing counter as zero', () => {
      expect(verdict(product({ dailyCap: 0 }))).toEqual(['DAILY_CAP_REACHED']);
      expect(verdict(product({ totalCap: 0 }))).toEqual(['TOTAL_CAP_REACHED']);
      const free = product({ dailyCap: null, totalCap: null });
      expect(verdict(free, { counters: { [free.id]: { today: 1e6, total: 1e9 } } })).toBe('eligible');
      expect(verdict(p, { counters: { other: { today: 99, total: 999 } } })).toBe('eligible');
    });
  });

  describe('re-apply lockout (Shanghai calendar days)', () => {
    const p = product({ id: 'lock', partnerId: 'LX' });
    const applied = (at: Date, productId = 'lock', partnerId = 'LX'): History => ({
      applications: [{ productId, partnerId, at }],
    });
    it('locks day 29, frees day 30 and day 31 with the default of 30 days', () => {
      expect(verdict(p, { history: applied(sh('2026-10-24T12:00:00')) })).toEqual(['REAPPLY_LOCKOUT']); // 29
      expect(verdict(p, { history: applied(sh('2026-10-23T12:00:00')) })).toBe('eligible'); // 30
      expect(verdict(p, { history: applied(sh('2026-10-22T12:00:00')) })).toBe('eligible'); // 31
      expect(verdict(p, { history: applied(sh('2026-11-22T11:59:00')) })).toEqual(['REAPPLY_LOCKOUT']); // 0
    });
    it('counts Shanghai calendar days, not UTC days or 24-hour spans', () => {
      // Applied 2026-10-23 23:30 Shanghai (15:30Z, still Oct 23 in UTC); now 2026-11-22 00:10 Shanghai
      // (Nov 21 in UTC): 30 Shanghai days, only 29 UTC days and less than 30×24 h.
      const at = sh('2026-10-23T23:30:00');
      const early = { options: { now: sh('2026-11-22T00:10:00') } };
      expect(verdict(p, { history: applied(at), ...early })).toBe('eligible');
      // Applied 2026-10-24 00:30 Shanghai (Oct 23 in UTC): 29 Shanghai days although 30 UTC days apart.
      const late = { options: { now: sh('2026-11-22T23:50:00') } };
      expect(verdict(p, { history: applied(sh('2026-10-24T00:30:00')), ...late })).toEqual([
        'REAPPLY_LOCKOUT',
      ]);
    });
    it('locks every product of the same lender', () => {
      expect(verdict(p, { history: applied(sh('2026-11-20T10:00:00'), 'another', 'LX') })).toEqual([
        'REAPPLY_LOCKOUT',
      ]);
      expect(verdict(p, { history: applied(sh('2026-11-20T10:00:00'), 'another', 'LY') })).toBe('eligible');
    });
    it('honours a configured lockout', () => {
      const h = applied(sh('2026-11-15T10:00:00')); // 7 days
      expect(verdict(p, { history: h, options: { reapplyLockoutDays: 7 } })).toBe('eligible');
      expect(verdict(p, { history: h, options: { reapplyLockoutDays: 8 } })).toEqual(['REAPPLY_LOCKOUT']);
      expect(verdict(p, { history: h, options: { reapplyLockoutDays: 0 } })).toBe('eligible');
    });
  });
});

describe('match: eligibility rules, one reason each', () => {
  it('city: not in the served list', () => {
    expect(verdict(product({}, { citiesIn: ['110100', '310100'] }))).toEqual(['CITY_NOT_COVERED']);
    expect(verdict(product({}, { citiesIn: ['110100', '440300'] }))).toBe('eligible');
  });
  it('city: a province code covers its cities', () => {
    expect(verdict(product({}, { citiesIn: ['440000'] }))).toBe('eligible');
    expect(verdict(product({}, { citiesIn: ['450000'] }))).toEqual(['CITY_NOT_COVERED']);
    expect(verdict(product({}, { citiesOut: ['440000'] }))).toEqual(['CITY_EXCLUDED']);
  });
  it('city: excluded list, which wins over the served list', () => {
    const r = run([product({}, { citiesOut: ['440300'] })]);
    expect(r.excluded[0]!.reasons).toEqual([{ code: 'CITY_EXCLUDED', text: '所在城市不在该产品服务范围' }]);
    expect(verdict(product({}, { citiesIn: ['440000'], citiesOut: ['440300'] }))).toEqual(['CITY_EXCLUDED']);
    expect(verdict(product({}, { citiesOut: ['440100'] }))).toBe('eligible');
  });

  describe('age', () => {
    const range = product({}, { ageMin: 22, ageMax: 55 });
    it('accepts the exact bounds and refuses one year beyond', () => {
      expect(verdict(range, { profile: { age: 21 } })).toEqual(['AGE_OUT_OF_RANGE']);
      expect(verdict(range, { profile: { age: 22 } })).toBe('eligible');
      expect(verdict(range, { profile: { age: 55 } })).toBe('eligible');
      expect(verdict(range, { profile: { age: 56 } })).toEqual(['AGE_OUT_OF_RANGE']);
    });
    it('computes the age from the ID number, to the birthday', () => {
      expect(verdict(range, { profile: { identity: idBorn('20041122'), age: 99 } })).toBe('eligible'); // 22 today
      expect(verdict(range, { profile: { identity: idBorn('20041123'), age: 30 } })).toEqual([
        'AGE_OUT_OF_RANGE',
      ]); // 21, 22 tomorrow
      expect(verdict(range, { profile: { identity: idBorn('19701122') } })).toEqual(['AGE_OUT_OF_RANGE']); // 56
      expect(verdict(range, { profile: { identity: idBorn('19701123') } })).toBe('eligible'); // 55
    });
    it('turns a birthday over at Shanghai midnight', () => {
      const id = idBorn('20041122');
      const justAfter = { now: sh('2026-11-22T00:30:00') }; // still Nov 21 in UTC
      const justBefore = { now: sh('2026-11-21T23:30:00') };
      expect(verdict(range, { profile: { identity: id }, options: justAfter })).toBe('eligible');
      expect(verdict(range, { profile: { identity: id }, options: justBefore })).toEqual([
        'AGE_OUT_OF_RANGE',
      ]);
    });
    it('falls back to the stated age when the ID is invalid, and refuses an unknown age', () => {
      const good = idBorn('19900101');
      const bad = good.slice(0, 17) + (good[17] === '0' ? '1' : '0');
      expect(checkIdCard(bad, now)).not.toBeNull();
      expect(verdict(range, { profile: { identity: bad, age: 30 } })).toBe('eligible');
      expect(verdict(range, { profile: { identity: undefined, age: undefined } })).toEqual([
        'AGE_OUT_OF_RANGE',
      ]);
      expect(verdict(product(), { profile: { age: undefined } })).toBe('eligible');
    });
    it('supports one-sided bounds', () => {
      expect(verdict(product({}, { ageMin: 31 }))).toEqual(['AGE_OUT_OF_RANGE']);
      expect(verdict(product({}, { ageMax: 29 }))).toEqual(['AGE_OUT_OF_RANGE']);
      expect(verdict(product({}, { ageMin: 30 }))).toBe('eligible');
    });
  });

  it('amount: inclusive bounds on the amount wanted', () => {
    const p = product({}, { amountMinFen: 1_000_000, amountMaxFen: 5_000_000 });
    expect(verdict(p)).toBe('eligible');
    expect(verdict(p, { profile: { applyLimitFen: 1_000_000 } })).toBe('eligible');
    expect(verdict(p, { profile: { applyLimitFen: 999_999 } })).toEqual(['AMOUNT_OUT_OF_RANGE']);
    expect(verdict(p, { profile: { applyLimitFen: 5_000_001 } })).toEqual(['AMOUNT_OUT_OF_RANGE']);
  });
  it('job', () => {
    expect(verdict(product({}, { jobs: ['businessOwner', 'selfEmployed'] }))).toEqual(['JOB_NOT_ACCEPTED']);
    expect(verdict(product({}, { jobs: ['employee'] }))).toBe('eligible');
  });
  it('social security, housing fund, insurance, house and car: any contribution or asset satisfies', () => {
    const cases: [ProductRules, Partial<Profile>, ReasonCode][] = [
      [{ requireSocialSecurity: true }, { socialSecurity: 'none' }, 'SOCIAL_SECURITY_REQUIRED'],
      [{ requireHousingFund: true }, { housingFund: 'none' }, 'HOUSING_FUND_REQUIRED'],
      [{ requireInsurance: true }, { insurance: 'none' }, 'INSURANCE_REQUIRED'],
      [{ requireHouse: true }, { houseProperty: 'none' }, 'HOUSE_REQUIRED'],
      [{ requireCar: true }, { carProperty: 'none' }, 'CAR_REQUIRED'],
    ];
    for (const [rules, lacking, code] of cases) {
      expect(verdict(product({}, rules), { profile: lacking })).toEqual([code]);
      expect(verdict(product({}, rules))).toBe('eligible');
      expect(
        verdict(product({}, Object.fromEntries(Object.keys(rules).map((k) => [k, false]))), {
          profile: lacking,
        }),
      ).toBe('eligible');
    }
    expect(
      verdict(product({}, { requireSocialSecurity: true }), { profile: { socialSecurity: 'under6Months' } }),
    ).toBe('eligible');
  });
  it('Sesame band: at least the minimum; no score is below every band', () => {
    const p = product({}, { sesameMin: '650to700' });
    expect(verdict(p, { profile: { sesameCredit: '650to700' } })).toBe('eligible');
    expect(verdict(p, { profile: { sesameCredit: '700plus' } })).toBe('eligible');
    expect(verdict(p, { profile: { sesameCredit: '600to650' } })).toEqual(['SESAME_TOO_LOW']);
    expect(verdict(product({}, { sesameMin: 'below600' }), { profile: { sesameCredit: 'none' } })).toEqual([
      'SESAME_TOO_LOW',
    ]);
  });
  it('credit record', () => {
    const p = product({}, { creditRecord: ['good'] });
    expect(verdict(p)).toBe('eligible');
    expect(verdict(p, { profile: { creditInvestigation: 'manyOverdues' } })).toEqual([
      'CREDIT_RECORD_NOT_ACCEPTED',
    ]);
    expect(verdict(product({}, { creditRecord: [] }))).toEqual(['CREDIT_RECORD_NOT_ACCEPTED']);
  });
  it('gives every broken rule and gate its own reason, in a stable order', () => {
    const p = product(
      { status: 'paused', dailyCap: 0 },
      { citiesIn: ['110000'], ageMin: 40, jobs: ['freelancer'], requireCar: true, sesameMin: '700plus' },
    );
    const r = run([p], { profile: { carProperty: 'none' } });
    expect(r.excluded[0]!.reasons.map((x) => x.code)).toEqual([
      'NOT_PUBLISHED',
      'DAILY_CAP_REACHED',
      'CITY_NOT_COVERED',
      'AGE_OUT_OF_RANGE',
      'JOB_NOT_ACCEPTED',
      'CAR_REQUIRED',
      'SESAME_TOO_LOW',
    ]);
    expect(r.excluded[0]!.reasons.every((x) => /[\u4e00-\u9fff]/.test(x.text))).toBe(true);
  });
});

describe('match: ranking and the lender allowance', () => {
  const ids = (r: MatchResult) => r.eligible.map((e) => e.productId);
  const wide = { options: { maxLendersPerPeriod: 10 } };
  it('ranks by priority, higher first', () => {
    const r = run(
      [
        product({ id: 'a', priority: 1 }),
        product({ id: 'b', priority: 5 }),
        product({ id: 'c', priority: 3 }),
      ],
      wide,
    );
    expect(ids(r)).toEqual(['b', 'c', 'a']);
    expect(r.eligible.map((e) => e.rank)).toEqual([1, 2, 3]);
  });
  it('then by price, higher first', () => {
    expect(
      ids(run([product({ id: 'a', priceFen: 1000 }), product({ id: 'b', priceFen: 5000 })], wide)),
    ).toEqual(['b', 'a']);
  });
  it('then by APR, lower first', () => {
    expect(ids(run([product({ id: 'a', aprBps: 2000 }), product({ id: 'b', aprBps: 1200 })], wide))).toEqual([
      'b',
      'a',
    ]);
  });
  it('then by id', () => {
    expect(ids(run([product({ id: 'b' }), product({ id: 'B' }), product({ id: 'a' })], wide))).toEqual([
      'B',
      'a',
      'b',
    ]);
  });
  it('priority outweighs price, price outweighs APR', () => {
    const r = run(
      [
        product({ id: 'cheap-rate', priority: 1, priceFen: 1000, aprBps: 500 }),
        product({ id: 'high-price', priority: 1, priceFen: 9000, aprBps: 2400 }),
        product({ id: 'top', priority: 2, priceFen: 1, aprBps: 2400 }),
      ],
      wide,
    );
    expect(ids(r)).toEqual(['top', 'high-price', 'cheap-rate']);
  });
  it('offers one product per lender, the best ranked', () => {
    const r = run([
      product({ id: 'a1', partnerId: 'A', priority: 1 }),
      product({ id: 'a2', partnerId: 'A', priority: 2 }),
    ]);
    expect(ids(r)).toEqual(['a2']);
    expect(r.excluded).toEqual([
      { productId: 'a1', reasons: [{ code: 'SAME_LENDER', text: expect.any(String) }] },
    ]);
  });
  it('cuts to 3 lenders by default; the rest are excluded with LENDER_LIMIT', () => {
    const ps = [1, 2, 3, 4, 5].map((n) => product({ id: `x${n}`, priority: n }));
    const r = run(ps);
    expect(ids(r)).toEqual(['x5', 'x4', 'x3']);
    expect(r.excluded.map((e) => [e.productId, e.reasons.map((x) => x.code)])).toEqual([
      ['x1', ['LENDER_LIMIT']],
      ['x2', ['LENDER_LIMIT']],
    ]);
  });
  it('subtracts the lenders already matched in the period', () => {
    const ps = [1, 2, 3].map((n) => product({ id: `y${n}`, priority: n }));
    expect(ids(run(ps, { history: { applications: [], lendersMatchedInPeriod: 2 } }))).toEqual(['y3']);
    expect(ids(run(ps, { history: { applications: [], lendersMatchedInPeriod: 3 } }))).toEqual([]);
    expect(ids(run(ps, { history: { applications: [], lendersMatchedInPeriod: 7 } }))).toEqual([]);
    // Two distinct lenders applied to within the 30-day period (one twice), one 30 days ago.
    const applications = [
      { productId: 'q1', partnerId: 'Q1', at: sh('2026-11-01T10:00:00') },
      { productId: 'q1b', partnerId: 'Q1', at: sh('2026-11-02T10:00:00') },
      { productId: 'q2', partnerId: 'Q2', at: sh('2026-10-24T10:00:00') },
      { productId: 'q3', partnerId: 'Q3', at: sh('2026-10-23T10:00:00') },
    ];
    expect(ids(run(ps, { history: { applications } }))).toEqual(['y3']);
    expect(ids(run(ps, { history: { applications, lendersMatchedInPeriod: 1 } }))).toEqual(['y3']);
    expect(ids(run(ps, { history: { applications }, options: { periodDays: 25 } }))).toEqual(['y3', 'y2']);
    expect(ids(run(ps, { history: { applications }, options: { periodDays: 20 } }))).toEqual([
      'y3',
      'y2',
      'y1',
    ]);
  });
  it('honours a configured maximum, including 0', () => {
    const ps = [1, 2, 3].map((n) => product({ id: `z${n}`, priority: n }));
    expect(ids(run(ps, { options: { maxLendersPerPeriod: 1 } }))).toEqual(['z3']);
    expect(ids(run(ps, { options: { maxLendersPerPeriod: 0 } }))).toEqual([]);
  });
  it('reports ineligible products with their own reasons, not LENDER_LIMIT', () => {
    const r = run([product({ id: 'd', status: 'draft' })], { options: { maxLendersPerPeriod: 0 } });
    expect(r.excluded[0]!.reasons.map((x) => x.code)).toEqual(['NOT_PUBLISHED']);
  });
  it('refuses duplicate product ids and nonsensical options', () => {
    expect(() => run([product({ id: 'dup' }), product({ id: 'dup' })])).toThrow(/duplicate/);
    expect(() => run([], { options: { maxLendersPerPeriod: -1 } })).toThrow(RangeError);
    expect(() => run([], { options: { reapplyLockoutDays: 1.5 } })).toThrow(RangeError);
  });
  it('answers empty lists for no products', () => {
    expect(run([])).toEqual({ eligible: [], excluded: [] });
  });
});
