import { shanghaiDaysBetween, shanghaiMinuteOfDay } from '@lm/shared/time';
import { type Applicant, applicant, profileAge } from './applicant.ts';
import { best, lenderAllowance, nonNegativeInteger } from './ranking.ts';
import { type Explanation, fixed, LENDER_LIMIT, SAME_LENDER } from './reasons.ts';
import {
  type History,
  MATCH_DEFAULTS,
  type MatchOptions,
  type MatchResult,
  type Product,
  type Profile,
  type RankedProduct,
  type Reason,
} from './types.ts';

/**
 * What a match knows before it checks a product: the applicant, the Shanghai minute of the day, how many more
 * lenders the person may be matched with, and the products and lenders applied to within the lockout.
 * The engine (match.ts) and its test oracle (match.oracle.ts) start from the same.
 */
export interface MatchSetup {
  a: Applicant;
  minute: number;
  allowance: number;
  lockedProducts: Set<string>;
  lockedPartners: Set<string>;
  /** The reason of a product or lender applied to within the lockout. */
  lockout: Reason;
}

export function setUpMatch(profile: Profile, history: History, options: MatchOptions): MatchSetup {
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
  return { a, minute, allowance, lockedProducts, lockedPartners, lockout };
}

/**
 * The result from the checked products: walking the candidates in ranking order, the best candidate of each
 * lender is offered while the allowance lasts (so the offers are the `allowance` best of the lenders' best
 * candidates, in order, each explained by `explain`); any other candidate is SAME_LENDER when its lender got an
 * offer, else LENDER_LIMIT; excluded products in id order (`order`: positions in `products` sorted by id).
 */
export function matchOutcome(
  products: readonly Product[],
  ids: readonly string[],
  order: ArrayLike<number>,
  reasonsAt: readonly (Reason[] | undefined)[],
  bests: Product[],
  allowance: number,
  explain: (product: Product) => Explanation[],
): MatchResult {
  const offers = best(bests, allowance);
  const eligible: RankedProduct[] = [];
  const offered = new Map<string, Product>();
  for (const product of offers) {
    offered.set(product.partnerId, product);
    eligible.push({ rank: eligible.length + 1, productId: product.id, product, matched: explain(product) });
  }
  const n = products.length;
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
