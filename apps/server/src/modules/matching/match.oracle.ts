import { type Applicant, applicant } from './applicant.ts';
import { matchOutcome, setUpMatch } from './outcome.ts';
import { compareProducts, firstDuplicate, idOrder } from './ranking.ts';
import {
  ageFits,
  ageOutOfRange,
  amountFits,
  amountOutOfRange,
  CITY_EXCLUDED,
  CITY_NOT_COVERED,
  CITY_SERVED,
  CREDIT_RECORD_ACCEPTED,
  CREDIT_RECORD_NOT_ACCEPTED,
  DAILY_CAP_REACHED,
  fixed,
  JOB_ACCEPTED,
  JOB_NOT_ACCEPTED,
  NOT_PUBLISHED,
  notPublishable,
  outsideHoursText,
  type Passed,
  REQUIREMENTS,
  sesameEnough,
  sesameTooLow,
  TOTAL_CAP_REACHED,
} from './reasons.ts';
import { cityListed, noRuleValues, readRules } from './rules-table.ts';
import { publishable } from './table.ts';
import { openAt } from './time.ts';
import {
  type Counters,
  type History,
  type MatchOptions,
  type MatchResult,
  type Product,
  type ProductRules,
  type Profile,
  type Reason,
  SESAME_ORDER,
} from './types.ts';

/*
 * The test oracle of the matching engine (tests only: nothing in production imports this file): the
 * first version's checker, product by product, reading each rule set from its object as the rules are
 * worded. `matchOracle` is `match` with it in place of the table (table.ts, rules-table.ts);
 * match.oracle.test.ts checks that both answer the same.
 */

/**
 * `reasons` with `reason` appended, created on the first reason. Most excluded products get one to
 * three: those lists are array literals of the exact size, as a push onto a full array reserves room
 * for 16 more (memory the young generation then has to collect, 10 000 times a call).
 */
function add(reasons: Reason[] | undefined, reason: Reason): Reason[] {
  if (reasons === undefined) return [reason];
  if (reasons.length === 1) return [reasons[0]!, reason];
  if (reasons.length === 2) return [reasons[0]!, reasons[1]!, reason];
  reasons.push(reason);
  return reasons;
}

/**
 * Checks every rule the product declares, in the order of checkRules: appends a reason for each rule
 * the applicant breaks to `reasons` (created when needed) and returns it; when `passed` is given,
 * appends to it the explanation of each rule satisfied. The matching asks for explanations only for
 * the products it offers.
 */
export function checkRuleSet(
  a: Applicant,
  rules: ProductRules,
  reasons: Reason[] | undefined,
  passed: Passed | undefined,
): Reason[] | undefined {
  const v = readRules(rules, noRuleValues());

  if (v.citiesIn || v.citiesOut) {
    const excluded = v.citiesOut && cityListed(a.city, v.citiesOut);
    if (excluded) reasons = add(reasons, CITY_EXCLUDED);
    const notCovered = v.citiesIn && !cityListed(a.city, v.citiesIn);
    if (notCovered) reasons = add(reasons, CITY_NOT_COVERED);
    if (passed && !excluded && !notCovered) passed.push(CITY_SERVED);
  }

  const { ageMin, ageMax } = v;
  if (ageMin !== undefined || ageMax !== undefined) {
    const age = a.age;
    if (age === null || age < (ageMin ?? 0) || age > (ageMax ?? Number.POSITIVE_INFINITY))
      reasons = add(reasons, ageOutOfRange(a, ageMin, ageMax));
    else passed?.push(ageFits(a, ageMin, ageMax));
  }

  const { amountMinFen, amountMaxFen } = v;
  if (amountMinFen !== undefined || amountMaxFen !== undefined) {
    if (a.amountFen < (amountMinFen ?? 0) || a.amountFen > (amountMaxFen ?? Number.POSITIVE_INFINITY))
      reasons = add(reasons, amountOutOfRange(amountMinFen, amountMaxFen));
    else passed?.push(amountFits(a, amountMinFen, amountMaxFen));
  }

  if (v.jobs) {
    if (!v.jobs.includes(a.profile.job)) reasons = add(reasons, JOB_NOT_ACCEPTED);
    else passed?.push(JOB_ACCEPTED);
  }

  if (v.required !== 0) {
    for (let i = 0; i < REQUIREMENTS.length; i++) {
      if (!(v.required & (1 << i))) continue;
      const r = REQUIREMENTS[i]!;
      if (!a.has[i]) reasons = add(reasons, r.fail);
      else passed?.push(r.pass);
    }
  }

  const sesameMin = v.sesameMin;
  if (sesameMin !== undefined) {
    const minIndex = SESAME_ORDER.indexOf(sesameMin);
    if (!(a.sesameIndex >= minIndex)) reasons = add(reasons, sesameTooLow(a, sesameMin, minIndex));
    else passed?.push(sesameEnough(a));
  }

  if (v.creditRecord) {
    if (!v.creditRecord.includes(a.profile.creditInvestigation))
      reasons = add(reasons, CREDIT_RECORD_NOT_ACCEPTED);
    else passed?.push(CREDIT_RECORD_ACCEPTED);
  }

  return reasons;
}

interface RuleOutcome {
  failed: Reason[];
  passed: Passed;
}

/** Checks every rule the product declares; each broken rule gives its own reason. */
export function checkRules(profile: Profile, age: number | null, rules: ProductRules): RuleOutcome {
  const passed: Passed = [];
  const failed = checkRuleSet(applicant(profile, age), rules, undefined, passed) ?? [];
  return { failed, passed };
}

/**
 * The gates and rules of every product, one product at a time (a list seen for the first time):
 * reasons by position (undefined for a candidate), the ids by position into `ids`, and the best
 * candidate of each lender.
 */
export function checkEach(
  products: readonly Product[],
  a: Applicant,
  counters: Counters,
  lockedProducts: ReadonlySet<string>,
  lockedPartners: ReadonlySet<string>,
  lockout: Reason,
  minute: number,
  reasonsAt: (Reason[] | undefined)[],
  ids: string[],
): Product[] {
  const anyLock = lockedProducts.size > 0;
  const bestOfLender = new Map<string, Product>();
  for (let i = 0; i < products.length; i++) {
    const product = products[i]!;
    const id = product.id;
    ids[i] = id;
    let reasons: Reason[] | undefined;

    if (product.status !== 'published') reasons = [NOT_PUBLISHED];
    if (!publishable(product)) reasons = add(reasons, notPublishable(product));
    if (!openAt(product.activeHours, minute))
      reasons = add(reasons, fixed('OUTSIDE_ACTIVE_HOURS', outsideHoursText(product.activeHours)));
    const { dailyCap, totalCap } = product;
    if (dailyCap !== null || totalCap !== null) {
      const counter = counters[id];
      if (dailyCap !== null && (counter?.today ?? 0) >= dailyCap) reasons = add(reasons, DAILY_CAP_REACHED);
      if (totalCap !== null && (counter?.total ?? 0) >= totalCap) reasons = add(reasons, TOTAL_CAP_REACHED);
    }
    if (anyLock && (lockedProducts.has(id) || lockedPartners.has(product.partnerId)))
      reasons = add(reasons, lockout);

    reasons = checkRuleSet(a, product.rules, reasons, undefined);
    reasonsAt[i] = reasons;
    if (reasons === undefined) {
      const held = bestOfLender.get(product.partnerId);
      if (held === undefined || compareProducts(product, held) < 0)
        bestOfLender.set(product.partnerId, product);
    }
  }
  return [...bestOfLender.values()];
}

export function matchOracle(
  profile: Profile,
  products: readonly Product[],
  counters: Counters,
  history: History,
  options: MatchOptions,
): MatchResult {
  const { a, minute, allowance, lockedProducts, lockedPartners, lockout } = setUpMatch(
    profile,
    history,
    options,
  );
  const n = products.length;
  /** Reasons of each excluded product, by position in `products`; undefined for candidates. */
  const reasonsAt = new Array<Reason[] | undefined>(n);

  const own = new Array<string>(n);
  const bests = checkEach(
    products,
    a,
    counters,
    lockedProducts,
    lockedPartners,
    lockout,
    minute,
    reasonsAt,
    own,
  );
  const ids: readonly string[] = own;
  const order = idOrder(own);
  if (order === null) throw new Error(`duplicate product id ${firstDuplicate(products)}`);

  return matchOutcome(products, ids, order, reasonsAt, bests, allowance, (product) => {
    const matched: Passed = [];
    checkRuleSet(a, product.rules, undefined, matched);
    return matched;
  });
}
