import { shanghaiDaysBetween } from '@lm/shared/time';
import { C0 } from './time.ts';
import { type History, MATCH_DEFAULTS, type MatchOptions, type Product } from './types.ts';

/** Ranking of candidates, the lender allowance, and the id order of `excluded`. */

/** Ranking: priority desc, price desc, APR asc, then id (code-unit order). */
export function compareProducts(a: Product, b: Product): number {
  return (
    b.priority - a.priority ||
    b.priceFen - a.priceFen ||
    (a.aprBps ?? Number.POSITIVE_INFINITY) - (b.aprBps ?? Number.POSITIVE_INFINITY) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

export function nonNegativeInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer`);
  return value;
}

/** Lenders the person may still be matched with in the current period. */
export function lenderAllowance(history: History, options: MatchOptions): number {
  const max = nonNegativeInteger(
    'maxLendersPerPeriod',
    options.maxLendersPerPeriod ?? MATCH_DEFAULTS.maxLendersPerPeriod,
  );
  const periodDays = nonNegativeInteger('periodDays', options.periodDays ?? MATCH_DEFAULTS.periodDays);
  const partners = new Set<string>();
  for (const a of history.applications) {
    if (shanghaiDaysBetween(a.at, options.now) < periodDays) partners.add(a.partnerId);
  }
  const used = Math.max(history.lendersMatchedInPeriod ?? 0, partners.size);
  return Math.max(0, max - used);
}

/**
 * The `k` best of `items` by compareProducts, best first: a full sort when `k` is a large share of
 * them, else one pass keeping the best `k` in order (insertion), which is linear for the usual k = 3.
 */
export function best(items: Product[], k: number): Product[] {
  if (k <= 0) return [];
  if (k * 8 >= items.length) return items.sort(compareProducts).slice(0, k);
  const top: Product[] = [];
  for (let i = 0; i < items.length; i++) {
    const p = items[i]!;
    if (top.length === k && compareProducts(p, top[k - 1]!) >= 0) continue;
    let j = top.length === k ? k - 1 : top.length;
    while (j > 0 && compareProducts(p, top[j - 1]!) < 0) {
      top[j] = top[j - 1]!;
      j--;
    }
    top[j] = p;
  }
  return top;
}

const RADIX_BITS = 11;
const RADIX_MASK = (1 << RADIX_BITS) - 1;

/**
 * Positions of `ids` in code-unit order of the ids (the order of `excluded`); null when two ids are
 * equal.
 *
 * Database ids are decimal strings, which have a fast path: an id of 1 to 8 digits becomes the number
 * (its digits padded on the right with zeros to the longest length L) × (L + 1) + its length, which
 * orders digit strings as `<` does (a prefix first) and stays below 2^32; a stable radix sort of those
 * (three passes of 11 bits) takes a third of the time of a sort with a comparison function and none
 * when the products come in id order. Other ids are sorted with `<`.
 */
export function idOrder(ids: readonly string[]): ArrayLike<number> | null {
  const n = ids.length;
  let longest = 0;
  let digitsOnly = true;
  for (let i = 0; i < n && digitsOnly; i++) {
    const id = ids[i]!;
    const len = id.length;
    if (len === 0 || len > 8) digitsOnly = false;
    for (let k = 0; k < len && digitsOnly; k++) {
      const c = id.charCodeAt(k) - C0;
      if (c < 0 || c > 9) digitsOnly = false;
    }
    if (len > longest) longest = len;
  }

  if (!digitsOnly) {
    const order = new Array<number>(n);
    for (let i = 0; i < n; i++) order[i] = i;
    order.sort((i, j) => {
      const a = ids[i]!;
      const b = ids[j]!;
      return a < b ? -1 : a > b ? 1 : 0;
    });
    for (let k = 1; k < n; k++) if (ids[order[k]!] === ids[order[k - 1]!]) return null;
    return order;
  }

  const keys = new Uint32Array(n);
  let sorted = true;
  for (let i = 0; i < n; i++) {
    const id = ids[i]!;
    const len = id.length;
    let value = 0;
    for (let k = 0; k < len; k++) value = value * 10 + (id.charCodeAt(k) - C0);
    const key = value * 10 ** (longest - len) * (longest + 1) + len;
    if (i > 0 && key <= keys[i - 1]!) sorted = false;
    keys[i] = key;
  }
  let order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  if (sorted) return order; // products listed in id order (strictly: no duplicates either)

  let spare = new Uint32Array(n);
  const start = new Uint32Array(RADIX_MASK + 1);
  for (let shift = 0; shift < 32; shift += RADIX_BITS) {
    start.fill(0);
    for (let i = 0; i < n; i++) start[(keys[i]! >>> shift) & RADIX_MASK]!++;
    if (start[(keys[0]! >>> shift) & RADIX_MASK] === n) continue; // the same digit everywhere
    let sum = 0;
    for (let d = 0; d <= RADIX_MASK; d++) {
      const count = start[d]!;
      start[d] = sum;
      sum += count;
    }
    for (let k = 0; k < n; k++) {
      const i = order[k]!;
      spare[start[(keys[i]! >>> shift) & RADIX_MASK]!++] = i;
    }
    const done = spare;
    spare = order;
    order = done;
  }
  for (let k = 1; k < n; k++) if (keys[order[k]!] === keys[order[k - 1]!]) return null;
  return order;
}

/** The first id in input order seen before (the error of a duplicate). */
export function firstDuplicate(products: readonly Product[]): string {
  const seen = new Set<string>();
  for (const p of products) {
    if (seen.has(p.id)) return p.id;
    seen.add(p.id);
  }
  return '';
}
