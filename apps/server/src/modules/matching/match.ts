import { shanghaiDaysBetween, shanghaiMinuteOfDay } from '../../lib/time.ts';
import { applicant, profileAge } from './applicant.ts';
import { best, firstDuplicate, idOrder, lenderAllowance, nonNegativeInteger } from './ranking.ts';
import { fixed, LENDER_LIMIT, SAME_LENDER } from './reasons.ts';
import { type Call, type Checked, checkRows, checkTable, tableFor } from './table.ts';
import {
  type Counters,
  type History,
  MATCH_DEFAULTS,
  type MatchOptions,
  type MatchResult,
  type Product,
  type Profile,
  type RankedProduct,
  type Reason,
} from './types.ts';

/*
 * The matching engine (spec §7 "Matching"): `match` is the entry. By concern:
 *   time.ts       active hours in Shanghai wall-clock time (the day helpers are in lib/time.ts)
 *   applicant.ts  what the checks read of the applicant, once per call
 *   reasons.ts    the texts of reasons and explanations, made once and shared
 *   rules-table.ts the eligibility rules: read into columns once, checked from them
 *   table.ts      products in rows of columns (gates + rules): one row at a time for a list seen
 *                 the first time, a table of the list kept for the next calls
 *   ranking.ts    ranking, the lender allowance, the id order of `excluded`
 * match.oracle.ts (tests only) is the first version's product-by-product checker, which the table
 * must agree with.
 */

export { profileAge } from './applicant.ts';
export { compareProducts, lenderAllowance } from './ranking.ts';
export { ruleReasons } from './rules-table.ts';
export { isWithinActiveHours } from './time.ts';

/**
 * Matches a profile against products. Pure: the same input gives the same output, whatever the order
 * of `products`. Every product ends in exactly one of `eligible` (ranked, at most one product per
 * lender, at most the remaining lender allowance) or `excluded` (with every reason, sorted by id).
 * Product ids must be unique.
 *
 * Products are immutable input: the same products passed again in the same order are matched from a
 * table built from them (see table.ts), so a product object must not be
 * changed in place once passed (pass a new object instead). Reasons, and explanations in `matched`,
 * with the same text may be one (frozen) object.
 */
export function match(
  profile: Profile,
  products: readonly Product[],
  counters: Counters,
  history: History,
  options: MatchOptions,
): MatchResult {
  const { now } = options;
  const lockoutDays = nonNegativeInteger(
    'reapplyLockoutDays',
    options.reapplyLockoutDays ?? MATCH_DEFAULTS.reapplyLockoutDays,
  );
  const allowance = lenderAllowance(history, options);
  const a = applicant(profile, profileAge(profile, now));
  const minute = shanghaiMinuteOfDay(now);

  const lockedProducts = new Set<string>();
  const lockedPartners = new Set<string>();
  for (const app of history.applications) {
    if (shanghaiDaysBetween(app.at, now) < lockoutDays) {
      lockedProducts.add(app.productId);
      lockedPartners.add(app.partnerId);
    }
  }
  const lockout = fixed('REAPPLY_LOCKOUT', `${lockoutDays}天内已申请过该机构的产品`);

  const n = products.length;
  /** Reasons of each excluded product, by position in `products`; undefined for candidates. */
  const reasonsAt = new Array<Reason[] | undefined>(n);
  const call: Call = { a, counters, minute, lockout, found: [] };
  const table = tableFor(products);
  let ids: readonly string[];
  let order: ArrayLike<number> | null;
  let checked: Checked;
  if (table) {
    ids = table.ids;
    order = table.order;
    checked = checkTable(table, call, lockedProducts, lockedPartners, reasonsAt);
  } else {
    const own = new Array<string>(n);
    checked = checkRows(products, call, lockedProducts, lockedPartners, reasonsAt, own);
    ids = own;
    order = table === null ? null : idOrder(own);
  }
  if (order === null) throw new Error(`duplicate product id ${firstDuplicate(products)}`);

  // Walking the candidates in ranking order, the best candidate of each lender is offered while the
  // allowance lasts; so the offers are the `allowance` best of the lenders' best candidates, in order.
  // Any other candidate is SAME_LENDER when its lender got an offer, else LENDER_LIMIT.
  const offers = best(checked.bests, allowance);
  const eligible: RankedProduct[] = [];
  const offered = new Map<string, Product>();
  for (const product of offers) {
    offered.set(product.partnerId, product);
    const matched = checked.explain(product);
    eligible.push({ rank: eligible.length + 1, productId: product.id, product, matched });
  }

  const excluded: MatchResult['excluded'] = new Array(n - eligible.length);
  let next = 0;
  for (let k = 0; k < n; k++) {
    const i = order[k]!;
    let reasons = reasonsAt[i];
    if (reasons === undefined) {
      const product = products[i]!;
      const offer = offered.get(product.partnerId);
      if (offer === product) continue;
      reasons = [offer !== undefined ? SAME_LENDER : LENDER_LIMIT];
    }
    excluded[next++] = { productId: ids[i]!, reasons };
  }
  return { eligible, excluded };
}
