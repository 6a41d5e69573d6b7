import { matchOutcome, setUpMatch } from './outcome.ts';
import { firstDuplicate, idOrder } from './ranking.ts';
import { type Call, type Checked, checkRows, checkTable, tableFor } from './table.ts';
import type { Counters, History, MatchOptions, MatchResult, Product, Profile, Reason } from './types.ts';

/*
 * The matching engine (spec §7 "Matching"): `match` is the entry. By concern:
 *   time.ts       active hours in Shanghai wall-clock time (the day helpers are in @lm/shared/time)
 *   applicant.ts  what the checks read of the applicant, once per call
 *   reasons.ts    the texts of reasons and explanations, made once and shared
 *   rules-table.ts the eligibility rules: read into columns once, checked from them
 *   table.ts      products in rows of columns (gates + rules): one row at a time for a list seen
 *                 the first time, a table of the list kept for the next calls
 *   ranking.ts    ranking, the lender allowance, the id order of `excluded`
 *   outcome.ts    what a match knows before checking (lockouts, allowance) and the offers and exclusions
 *                 after, shared with the oracle
 * match.oracle.ts (tests only) is the first version's product-by-product checker, which the table
 * must agree with (the rules; setup and outcome are outcome.ts's for both).
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
  const { a, minute, allowance, lockedProducts, lockedPartners, lockout } = setUpMatch(
    profile,
    history,
    options,
  );
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

  return matchOutcome(products, ids, order, reasonsAt, checked.bests, allowance, checked.explain);
}
