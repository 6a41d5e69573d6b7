import { shanghaiDate } from '@lm/shared/time';
import { ageFromIdCard, checkIdCard, idCardCheckChar } from '@lm/shared/validators/id-card';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MatchCase } from './fixtures.ts';
import { match } from './match.ts';
import type {
  Counters,
  CreditRecord,
  History,
  Job,
  MatchOptions,
  Product,
  ProductRules,
  Profile,
  ReasonCode,
  SesameBand,
} from './types.ts';

/* The property tests of match (moved from match.test.ts, which keeps the example-based ones). */

/** A Shanghai wall-clock instant. */
const sh = (local: string) => new Date(`${local}+08:00`);
const withCheck = (first17: string) => first17 + idCardCheckChar(first17);
/** A valid ID born on `yyyymmdd`. */
const idBorn = (yyyymmdd: string) => withCheck(`110105${yyyymmdd}001`);

/* —————————————————————— property tests —————————————————————— */

const CITY_CODES = [
  '110000',
  '110100',
  '310000',
  '310100',
  '440000',
  '440100',
  '440300',
  '330100',
  '510100',
  '420100',
];
const PARTNERS = ['L1', 'L2', 'L3', 'L4', 'L5', 'L6', 'L7', 'L8'];
const JOBS: Job[] = ['employee', 'selfEmployed', 'businessOwner', 'freelancer'];
const SESAME: SesameBand[] = ['none', 'below600', '600to650', '650to700', '700plus'];
const CREDIT: CreditRecord[] = ['none', 'good', 'fewOverdues', 'manyOverdues'];
const T0 = sh('2026-01-01T00:00:00').getTime();
const T1 = sh('2027-01-01T00:00:00').getTime();

const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined, freq: 2 });
const ymd = (d: Date) => d.toISOString().slice(0, 10).replaceAll('-', '');

const profileArb: fc.Arbitrary<Profile> = fc.record({
  applyLimitFen: fc.oneof(
    fc.constantFrom(1_000_000, 5_000_000, 10_000_000, 20_000_000),
    fc.integer({ min: 100_000, max: 30_000_000 }),
  ),
  workCityCode: fc.constantFrom(...CITY_CODES.filter((c) => !c.endsWith('0000')), '110100'),
  identity: opt(
    fc
      .date({ min: new Date('1950-01-01'), max: new Date('2010-12-31'), noInvalidDate: true })
      .map((d) => idBorn(ymd(d))),
  ),
  age: opt(fc.integer({ min: 16, max: 75 })),
  job: fc.constantFrom(...JOBS),
  socialSecurity: fc.constantFrom('none', 'under6Months', 'over6Months'),
  housingFund: fc.constantFrom('none', 'under6Months', 'over6Months'),
  insurance: fc.constantFrom('none', 'under1Year', 'over1Year'),
  houseProperty: fc.constantFrom('none', 'mortgageable', 'owned'),
  carProperty: fc.constantFrom('none', 'mortgageable', 'owned'),
  sesameCredit: fc.constantFrom(...SESAME),
  creditInvestigation: fc.constantFrom(...CREDIT),
  phoneBrand: opt(
    fc.constantFrom('iphone', 'huawei', 'honor', 'oppo', 'vivo', 'xiaomi', 'samsung', 'oneplus', 'other'),
  ),
}) as fc.Arbitrary<Profile>;

const hhmm = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 30, 59))
  .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);

const allRulesArb = fc.record(
  {
    citiesIn: fc.uniqueArray(fc.constantFrom(...CITY_CODES), { maxLength: 4 }),
    citiesOut: fc.uniqueArray(fc.constantFrom(...CITY_CODES), { maxLength: 3 }),
    ageMin: fc.integer({ min: 18, max: 35 }),
    ageMax: fc.integer({ min: 40, max: 65 }),
    amountMinFen: fc.integer({ min: 100_000, max: 5_000_000 }),
    amountMaxFen: fc.integer({ min: 5_000_000, max: 30_000_000 }),
    jobs: fc.uniqueArray(fc.constantFrom(...JOBS), { minLength: 1, maxLength: 4 }),
    requireSocialSecurity: fc.boolean(),
    requireHousingFund: fc.boolean(),
    requireInsurance: fc.boolean(),
    requireHouse: fc.boolean(),
    requireCar: fc.boolean(),
    sesameMin: fc.constantFrom(...SESAME),
    creditRecord: fc.uniqueArray(fc.constantFrom(...CREDIT), { minLength: 1, maxLength: 4 }),
  },
  { requiredKeys: [] },
);

/** Most products declare a few rules (0 to 3), as real ones do; all kinds appear across runs. */
const rulesArb: fc.Arbitrary<ProductRules> = fc
  .tuple(allRulesArb, fc.integer({ min: 0, max: 3 }))
  .chain(([all, n]) => {
    const size = Math.min(n, Object.keys(all).length);
    return fc
      .shuffledSubarray(Object.keys(all), { minLength: size, maxLength: size })
      .map((keys) => Object.fromEntries(keys.map((k) => [k, all[k as keyof ProductRules]])) as ProductRules);
  });

const productArb = (id: string): fc.Arbitrary<Product> =>
  fc
    .record({
      partnerId: fc.constantFrom(...PARTNERS),
      companyType: fc.constantFrom('KAInstitution', 'RegionInstitution'),
      institutionType: fc.constantFrom(1, 2, 3, 4),
      linkType: fc.constantFrom(1, 2, 3, 4, 5, 6, 7, 8, 9),
      amountMinFen: fc.integer({ min: 100_000, max: 1_000_000 }),
      amountMaxFen: fc.integer({ min: 1_000_000, max: 30_000_000 }),
      termMinMonths: fc.constantFrom(1, 3, 6),
      termMaxMonths: fc.constantFrom(6, 12, 24, 36),
      aprBps: fc.oneof(
        { weight: 6, arbitrary: fc.integer({ min: 700, max: 2400 }) },
        { weight: 1, arbitrary: fc.constantFrom(2400, 2401, 3600, null) },
      ),
      status: fc.oneof(
        { weight: 6, arbitrary: fc.constant('published') },
        { weight: 1, arbitrary: fc.constantFrom('draft', 'paused') },
      ),
      activeHours: fc.option(fc.record({ from: hhmm, to: hhmm }), { nil: null, freq: 2 }),
      dailyCap: fc.option(fc.integer({ min: 0, max: 50 }), { nil: null, freq: 2 }),
      totalCap: fc.option(fc.integer({ min: 0, max: 2000 }), { nil: null, freq: 2 }),
      priority: fc.integer({ min: 0, max: 5 }),
      priceFen: fc.constantFrom(1000, 2000, 3000, 5000, 8000),
      rules: rulesArb,
    })
    .map((r) => ({
      id,
      productName: `产品${id}`,
      partnerLegalName: `${r.partnerId}消费金融有限公司`,
      thirdpartyType: r.linkType === 7 ? 7 : 1,
      ...r,
    })) as fc.Arbitrary<Product>;

const productsArb: fc.Arbitrary<Product[]> = fc
  .uniqueArray(fc.integer({ min: 1, max: 999 }), { maxLength: 25 })
  .chain((ns) => (ns.length === 0 ? fc.constant([]) : fc.tuple(...ns.map((n) => productArb(`p${n}`)))));

/** Counts spread over the range, with extra weight exactly at and just below each cap. */
const countArb = (cap: number | null, max: number) =>
  cap === null
    ? fc.integer({ min: 0, max })
    : fc.oneof(
        { weight: 3, arbitrary: fc.integer({ min: 0, max: cap }) },
        { weight: 1, arbitrary: fc.integer({ min: 0, max }) },
        { weight: 1, arbitrary: fc.constantFrom(cap, Math.max(0, cap - 1), cap + 1) },
      );

const countersArb = (products: Product[]): fc.Arbitrary<Counters> =>
  fc
    .tuple(
      ...products.map((p) =>
        fc.option(
          fc
            .tuple(countArb(p.dailyCap, 60), countArb(p.totalCap, 2100))
            .map(([today, total]) => ({ today, total: Math.max(today, total) })),
          { nil: undefined },
        ),
      ),
    )
    .map((cs) => Object.fromEntries(products.map((p, i) => [p.id, cs[i]])));

const historyArb = (now: Date, products: Product[]): fc.Arbitrary<History> =>
  fc.record(
    {
      applications: fc.array(
        fc.record({
          productId:
            products.length > 0 ? fc.constantFrom(...products.map((p) => p.id), 'gone') : fc.constant('gone'),
          partnerId: fc.constantFrom(...PARTNERS),
          at: fc.integer({ min: 0, max: 60 * 86_400_000 }).map((ago) => new Date(now.getTime() - ago)),
        }),
        { maxLength: 3 },
      ),
      lendersMatchedInPeriod: fc.integer({ min: 0, max: 3 }),
    },
    { requiredKeys: ['applications'] },
  );

const optionsArb: fc.Arbitrary<MatchOptions> = fc.record(
  {
    now: fc.integer({ min: T0, max: T1 }).map((t) => new Date(t)),
    maxLendersPerPeriod: fc.integer({ min: 0, max: 5 }),
    reapplyLockoutDays: fc.constantFrom(7, 30, 60),
    periodDays: fc.constantFrom(7, 30),
  },
  { requiredKeys: ['now'] },
);

const caseArb: fc.Arbitrary<MatchCase> = fc
  .record({ profile: profileArb, products: productsArb, options: optionsArb })
  .chain(({ profile, products, options }) =>
    fc.record({
      profile: fc.constant(profile),
      products: fc.constant(products),
      options: fc.constant(options),
      counters: countersArb(products),
      history: historyArb(options.now, products),
    }),
  );

/**
 * Independent oracle: the codes for which a product must be excluded before ranking, written from the
 * rules' wording without the implementation's helpers (Shanghai dates via @lm/shared/time, ages via the
 * shared ID helpers).
 */
function oracle(c: MatchCase, p: Product): Set<ReasonCode> {
  const out = new Set<ReasonCode>();
  const { profile: pr, options } = c;
  const today = shanghaiDate(options.now);
  const dayIndex = (d: Date) => Date.parse(`${shanghaiDate(d)}T00:00:00Z`) / 86_400_000;
  if (p.status !== 'published') out.add('NOT_PUBLISHED');
  const hoursOk = (h: string) => /^([01][0-9]|2[0-3]):[0-5][0-9]$/.test(h);
  if (
    p.aprBps === null ||
    p.aprBps > 2400 ||
    p.partnerLegalName.trim() === '' ||
    p.amountMinFen > p.amountMaxFen ||
    p.termMinMonths > p.termMaxMonths ||
    (p.activeHours && !(hoursOk(p.activeHours.from) && hoursOk(p.activeHours.to)))
  )
    out.add('NOT_PUBLISHABLE');
  if (p.activeHours) {
    const local = new Date(options.now.getTime() + 8 * 3600_000).toISOString().slice(11, 16);
    const { from, to } = p.activeHours;
    const open = from === to || (from < to ? local >= from && local < to : local >= from || local < to);
    if (!open) out.add('OUTSIDE_ACTIVE_HOURS');
  }
  const k = c.counters[p.id] ?? { today: 0, total: 0 };
  if (p.dailyCap !== null && k.today >= p.dailyCap) out.add('DAILY_CAP_REACHED');
  if (p.totalCap !== null && k.total >= p.totalCap) out.add('TOTAL_CAP_REACHED');
  const lockout = options.reapplyLockoutDays ?? 30;
  for (const a of c.history.applications) {
    const days = Date.parse(`${today}T00:00:00Z`) / 86_400_000 - dayIndex(a.at);
    if ((a.productId === p.id || a.partnerId === p.partnerId) && days < lockout) out.add('REAPPLY_LOCKOUT');
  }
  const r = p.rules;
  const inList = (list: string[]) =>
    list.some(
      (code) =>
        code === pr.workCityCode || (/0000$/.test(code) && code.slice(0, 2) === pr.workCityCode.slice(0, 2)),
    );
  if (r.citiesOut && inList(r.citiesOut)) out.add('CITY_EXCLUDED');
  if (r.citiesIn && !inList(r.citiesIn)) out.add('CITY_NOT_COVERED');
  const age =
    pr.identity && checkIdCard(pr.identity, options.now) === null
      ? ageFromIdCard(pr.identity, options.now)
      : pr.age;
  if ((r.ageMin !== undefined || r.ageMax !== undefined) && age === undefined) out.add('AGE_OUT_OF_RANGE');
  if (
    age !== undefined &&
    ((r.ageMin !== undefined && age < r.ageMin) || (r.ageMax !== undefined && age > r.ageMax))
  )
    out.add('AGE_OUT_OF_RANGE');
  if (
    (r.amountMinFen !== undefined && pr.applyLimitFen < r.amountMinFen) ||
    (r.amountMaxFen !== undefined && pr.applyLimitFen > r.amountMaxFen)
  )
    out.add('AMOUNT_OUT_OF_RANGE');
  if (r.jobs && !r.jobs.includes(pr.job)) out.add('JOB_NOT_ACCEPTED');
  if (r.requireSocialSecurity && pr.socialSecurity === 'none') out.add('SOCIAL_SECURITY_REQUIRED');
  if (r.requireHousingFund && pr.housingFund === 'none') out.add('HOUSING_FUND_REQUIRED');
  if (r.requireInsurance && pr.insurance === 'none') out.add('INSURANCE_REQUIRED');
  if (r.requireHouse && pr.houseProperty === 'none') out.add('HOUSE_REQUIRED');
  if (r.requireCar && pr.carProperty === 'none') out.add('CAR_REQUIRED');
  if (r.sesameMin && SESAME.indexOf(pr.sesameCredit) < SESAME.indexOf(r.sesameMin)) out.add('SESAME_TOO_LOW');
  if (r.creditRecord && !r.creditRecord.includes(pr.creditInvestigation))
    out.add('CREDIT_RECORD_NOT_ACCEPTED');
  return out;
}

/** The allowance from the definition: max − max(count given, distinct lenders applied to in the period). */
function oracleAllowance(c: MatchCase): number {
  const today = Date.parse(`${shanghaiDate(c.options.now)}T00:00:00Z`) / 86_400_000;
  const period = c.options.periodDays ?? 30;
  const lenders = new Set(
    c.history.applications
      .filter((a) => today - Date.parse(`${shanghaiDate(a.at)}T00:00:00Z`) / 86_400_000 < period)
      .map((a) => a.partnerId),
  );
  const used = Math.max(c.history.lendersMatchedInPeriod ?? 0, lenders.size);
  return Math.max(0, (c.options.maxLendersPerPeriod ?? 3) - used);
}

const runCase = (c: MatchCase, products = c.products) =>
  match(c.profile, products, c.counters, c.history, c.options);
const RUNS = { numRuns: 400 };

describe('match: properties', () => {
  it('(a) never returns an eligible product whose rules or gates the profile breaks; exclusions agree with an independent checker', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const r = runCase(c);
        const byId = new Map(c.products.map((p) => [p.id, p]));
        for (const e of r.eligible) expect([...oracle(c, e.product)]).toEqual([]);
        for (const x of r.excluded) {
          const codes = x.reasons.map((y) => y.code);
          const expected = oracle(c, byId.get(x.productId)!);
          if (expected.size === 0) {
            expect(codes.length).toBe(1);
            expect(['SAME_LENDER', 'LENDER_LIMIT']).toContain(codes[0]);
          } else {
            expect(new Set(codes)).toEqual(expected);
            expect(codes.length).toBe(expected.size);
          }
        }
      }),
      RUNS,
    );
  });

  it('(b) never returns a product at or over its daily or total cap, nor one above 24 % APR', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        for (const { product: p } of runCase(c).eligible) {
          const k = c.counters[p.id] ?? { today: 0, total: 0 };
          if (p.dailyCap !== null) expect(k.today).toBeLessThan(p.dailyCap);
          if (p.totalCap !== null) expect(k.total).toBeLessThan(p.totalCap);
          expect(p.aprBps).not.toBeNull();
          expect(p.aprBps!).toBeLessThanOrEqual(2400);
          expect(p.status).toBe('published');
        }
      }),
      RUNS,
    );
  });

  it('(c) is deterministic and independent of the order of the products', () => {
    fc.assert(
      fc.property(
        caseArb.chain((c) =>
          fc.tuple(
            fc.constant(c),
            fc.shuffledSubarray(c.products, { minLength: c.products.length, maxLength: c.products.length }),
          ),
        ),
        ([c, shuffled]) => {
          const first = runCase(c);
          expect(runCase(c)).toEqual(first);
          expect(runCase(c, shuffled)).toEqual(first);
          expect(runCase(c, [...c.products].reverse())).toEqual(first);
        },
      ),
      RUNS,
    );
  });

  it('(d) offers at most the remaining lender allowance, one product per lender, in ranking order', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const { eligible, excluded } = runCase(c);
        const allowance = oracleAllowance(c);
        expect(eligible.length).toBeLessThanOrEqual(allowance);
        expect(new Set(eligible.map((e) => e.product.partnerId)).size).toBe(eligible.length);
        expect(eligible.map((e) => e.rank)).toEqual(eligible.map((_, i) => i + 1));
        for (let i = 1; i < eligible.length; i++) {
          const a = eligible[i - 1]!.product;
          const b = eligible[i]!.product;
          const key = (p: Product) => [-p.priority, -p.priceFen, p.aprBps ?? 0];
          const [ka, kb] = [key(a), key(b)];
          const cmp = ka[0]! - kb[0]! || ka[1]! - kb[1]! || ka[2]! - kb[2]! || (a.id < b.id ? -1 : 1);
          expect(cmp).toBeLessThan(0);
        }
        // The allowance is used up before anything is cut for LENDER_LIMIT.
        if (excluded.some((x) => x.reasons[0]!.code === 'LENDER_LIMIT'))
          expect(eligible.length).toBe(allowance);
      }),
      RUNS,
    );
  });

  it('(e) puts every product in exactly one list, excluded ones with at least one reason, sorted by id', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const { eligible, excluded } = runCase(c);
        const all = [...eligible.map((e) => e.productId), ...excluded.map((x) => x.productId)];
        expect(all.length).toBe(c.products.length);
        expect(new Set(all)).toEqual(new Set(c.products.map((p) => p.id)));
        for (const x of excluded) expect(x.reasons.length).toBeGreaterThan(0);
        const excludedIds = excluded.map((x) => x.productId);
        expect(excludedIds).toEqual([...excludedIds].sort());
      }),
      RUNS,
    );
  });
});
