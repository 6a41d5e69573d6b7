import { idCardCheckChar } from '@lm/shared/validators/id-card';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type MatchCase, SAMPLE_PROFILE, SAMPLE_TERMS } from './fixtures.ts';
import { checkRules, matchOracle } from './match.oracle.ts';
import { match, profileAge, ruleReasons } from './match.ts';
import type { History, MatchOptions, Product, ProductRules, Profile } from './types.ts';

/*
 * The table (table.ts, rules-table.ts) against the first version's product-by-product checker
 * (match.oracle.ts): the same answer, reason for reason and text for text, on the first call with a
 * list and on the next ones (the city index), for rule sets of the declared types and for values
 * outside them (which the table reads as the checker's comparisons do).
 */

const sh = (local: string) => new Date(`${local}+08:00`);
const T0 = sh('2026-01-01T00:00:00').getTime();
const T1 = sh('2027-01-01T00:00:00').getTime();
const CITIES = ['110000', '110100', '310000', '310100', '440000', '440100', '440300', '330100', '4'];
const JOBS = ['employee', 'selfEmployed', 'businessOwner', 'freelancer'] as const;
const CREDIT = ['none', 'good', 'fewOverdues', 'manyOverdues'] as const;
const SESAME = ['none', 'below600', '600to650', '650to700', '700plus'] as const;
const PARTNERS = ['L1', 'L2', 'L3', 'L4', 'L5'];

const profileArb: fc.Arbitrary<Profile> = fc
  .record({
    applyLimitFen: fc.integer({ min: 100_000, max: 30_000_000 }),
    workCityCode: fc.constantFrom('110100', '310100', '440100', '440300', '330100', '4'),
    born: fc.option(fc.integer({ min: 1950, max: 2008 }), { nil: undefined }),
    age: fc.option(fc.integer({ min: 16, max: 75 }), { nil: undefined }),
    job: fc.constantFrom(...JOBS),
    socialSecurity: fc.constantFrom('none', 'under6Months', 'over6Months'),
    housingFund: fc.constantFrom('none', 'over6Months'),
    insurance: fc.constantFrom('none', 'over1Year'),
    houseProperty: fc.constantFrom('none', 'owned'),
    carProperty: fc.constantFrom('none', 'mortgageable'),
    sesameCredit: fc.constantFrom(...SESAME),
    creditInvestigation: fc.constantFrom(...CREDIT),
  })
  .map(({ born, ...p }) => {
    const first17 = born === undefined ? undefined : `110105${born}0615001`;
    return {
      ...SAMPLE_PROFILE,
      ...p,
      identity: first17 && first17 + idCardCheckChar(first17),
    } as Profile;
  });

/** Rule values of the declared types, and (less often) others a stored rule set could hold. */
const odd = <T>(typed: fc.Arbitrary<T>, others: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 4, arbitrary: typed as fc.Arbitrary<unknown> }, { weight: 1, arbitrary: others });

const rulesArb: fc.Arbitrary<ProductRules> = fc
  .record(
    {
      citiesIn: odd(
        fc.uniqueArray(fc.constantFrom(...CITIES), { maxLength: 4 }),
        fc.constantFrom('440300', '440000', '', null, 0),
      ),
      citiesOut: odd(
        fc.uniqueArray(fc.constantFrom(...CITIES), { maxLength: 3 }),
        fc.constantFrom('310100', null, false),
      ),
      ageMin: odd(fc.integer({ min: 18, max: 35 }), fc.constantFrom(null, '30', 'x', -0, Number.NaN)),
      ageMax: odd(fc.integer({ min: 40, max: 65 }), fc.constantFrom(null, '50', '', true)),
      amountMinFen: odd(
        fc.integer({ min: 100_000, max: 5_000_000 }),
        fc.constantFrom(null, '2000000', -0, 0, 1.5, -100),
      ),
      amountMaxFen: odd(
        fc.integer({ min: 5_000_000, max: 30_000_000 }),
        fc.constantFrom(null, '9000000', -0),
      ),
      jobs: odd(
        fc.uniqueArray(fc.constantFrom(...JOBS), { maxLength: 4 }),
        fc.constantFrom(['employee', 'astronaut'], 'employee,freelancer', ['x'], '', null),
      ),
      requireSocialSecurity: odd(fc.boolean(), fc.constantFrom(1, 0, 'yes', null)),
      requireHousingFund: fc.boolean(),
      requireInsurance: fc.boolean(),
      requireHouse: fc.boolean(),
      requireCar: odd(fc.boolean(), fc.constantFrom('', 'no')),
      sesameMin: odd(fc.constantFrom(...SESAME), fc.constantFrom(null, 'excellent', '')),
      creditRecord: odd(
        fc.uniqueArray(fc.constantFrom(...CREDIT), { minLength: 1, maxLength: 4 }),
        fc.constantFrom(['good', 'unknown'], 'good', []),
      ),
    },
    { requiredKeys: [] },
  )
  .map((r) => r as ProductRules);

const productArb = (id: string): fc.Arbitrary<Product> =>
  fc
    .record({
      partnerId: fc.constantFrom(...PARTNERS),
      aprBps: fc.oneof(fc.integer({ min: 700, max: 2400 }), fc.constantFrom(2401, null)),
      status: fc.constantFrom('published', 'published', 'published', 'paused'),
      activeHours: fc.option(
        fc.record({
          from: fc.constantFrom('00:00', '09:00', '22:00', '9:00', '24:00'),
          to: fc.constantFrom('00:00', '18:00', '06:00', '09:00'),
        }),
        { nil: null, freq: 2 },
      ),
      dailyCap: fc.option(fc.integer({ min: 0, max: 20 }), { nil: null }),
      totalCap: fc.option(fc.integer({ min: 0, max: 500 }), { nil: null }),
      priority: fc.integer({ min: 0, max: 3 }),
      priceFen: fc.constantFrom(1000, 3000, 5000),
      rules: rulesArb,
    })
    .map(
      (r) =>
        ({
          id,
          productName: `产品${id}`,
          partnerLegalName: `${r.partnerId}消费金融有限公司`,
          ...SAMPLE_TERMS,
          ...r,
        }) as Product,
    );

const caseArb: fc.Arbitrary<MatchCase> = fc
  .record({
    profile: profileArb,
    ids: fc.uniqueArray(fc.oneof(fc.integer({ min: 1, max: 999 }).map(String), fc.constantFrom('a7', 'b')), {
      maxLength: 20,
    }),
    options: fc.record(
      {
        now: fc.integer({ min: T0, max: T1 }).map((t) => new Date(t)),
        maxLendersPerPeriod: fc.integer({ min: 0, max: 5 }),
        reapplyLockoutDays: fc.constantFrom(7, 30),
        periodDays: fc.constantFrom(7, 30),
      },
      { requiredKeys: ['now'] },
    ),
  })
  .chain(({ profile, ids, options }) =>
    fc.tuple(...ids.map((id) => productArb(id))).chain((products) =>
      fc.record({
        profile: fc.constant(profile),
        products: fc.constant(products),
        options: fc.constant(options),
        counters: fc
          .tuple(
            ...products.map(() =>
              fc.option(
                fc
                  .tuple(fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 600 }))
                  .map(([today, total]) => ({ today, total: Math.max(today, total) })),
                { nil: undefined },
              ),
            ),
          )
          .map((cs) => Object.fromEntries(products.map((p, i) => [p.id, cs[i]]))),
        history: fc.record({
          applications: fc.array(
            fc.record({
              productId: fc.constantFrom('gone', ...products.map((p) => p.id)),
              partnerId: fc.constantFrom(...PARTNERS),
              at: fc
                .integer({ min: 0, max: 40 * 86_400_000 })
                .map((ago) => new Date(options.now.getTime() - ago)),
            }),
            { maxLength: 3 },
          ),
        }),
      }),
    ),
  );

const RUNS = { numRuns: 400 };

describe('match: the table agrees with the product-by-product oracle', () => {
  it('gives the same result on the first call with a list and on the next ones', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const expected = matchOracle(c.profile, c.products, c.counters, c.history, c.options);
        expect(match(c.profile, c.products, c.counters, c.history, c.options)).toEqual(expected);
        // The same products again (a new array): from the table built, with its city index.
        expect(match(c.profile, [...c.products], c.counters, c.history, c.options)).toEqual(expected);
        expect(match(c.profile, c.products, c.counters, c.history, c.options)).toEqual(expected);
      }),
      RUNS,
    );
  });

  it("gives one rule set's reasons as the oracle does (the console's rule tester)", () => {
    fc.assert(
      fc.property(profileArb, rulesArb, fc.integer({ min: T0, max: T1 }), (profile, rules, t) => {
        const age = profileAge(profile, new Date(t));
        expect(ruleReasons(profile, age, rules)).toEqual(checkRules(profile, age, rules).failed);
      }),
      RUNS,
    );
  });

  it('throws where the oracle throws: a list without `includes`', () => {
    const age = profileAge(SAMPLE_PROFILE, new Date(T0));
    const rules = { jobs: 7 } as unknown as ProductRules;
    expect(() => checkRules(SAMPLE_PROFILE, age, rules)).toThrow(TypeError);
    expect(() => ruleReasons(SAMPLE_PROFILE, age, rules)).toThrow(TypeError);
  });

  it('refuses duplicate ids as the oracle does', () => {
    const [p] = fc.sample(productArb('p1'), { numRuns: 1, seed: 1 });
    const products = [p!, { ...p! }];
    const history: History = { applications: [] };
    const options: MatchOptions = { now: new Date(T0) };
    expect(() => matchOracle(SAMPLE_PROFILE, products, {}, history, options)).toThrow(
      'duplicate product id p1',
    );
    expect(() => match(SAMPLE_PROFILE, products, {}, history, options)).toThrow('duplicate product id p1');
  });
});
