import type { Applicant } from './applicant.ts';
import { MAX_APR_BPS } from './publish.ts';
import { compareProducts, idOrder } from './ranking.ts';
import {
  DAILY_CAP_REACHED,
  type Explanation,
  fixed,
  listOf,
  NOT_PUBLISHED,
  notPublishable,
  outsideHoursText,
  TOTAL_CAP_REACHED,
} from './reasons.ts';
import {
  addRules,
  checkRulesAt,
  cityCoverage,
  explainRulesAt,
  pairIndex,
  type RuleColumns,
  ruleColumns,
} from './rules-table.ts';
import { ALL_DAY, CLOSED, hhmmMinutes, WINDOW } from './time.ts';
import type { Counters, Product, Reason } from './types.ts';

/*
 * A list of products as the match reads it (target: 10 000 products in under 5 ms p99;
 * bench/match.mjs, figures in bench/README.md): what depends on the products alone in columns of
 * typed arrays — the gates (published, publishable, active hours, caps) here, the rules in
 * RuleColumns (rules-table.ts) —, the id order sorted. A call then reads a few arrays in order
 * instead of following ten objects per product.
 *
 * A table is kept for its list (see tableFor): a server keeps its published products in memory and
 * passes the same product objects on every call (in a new array, e.g. `catalog.map((e) => e.engine)`),
 * which then finds the table built. Products are immutable input: a product object must not be
 * changed in place once passed (a changed product is a new object, which makes a new list); a product
 * changed in place would go unnoticed.
 */

/** A product list in columns. Column `x[i]` is about `products[i]`. */
export interface Table {
  /** The list's products. */
  products: readonly Product[];
  ids: string[];
  /** Positions in id order (code units), for `excluded`. */
  order: ArrayLike<number>;
  /** Positions by id, made when a call needs it (a product applied to lately). */
  indexById: Map<string, number> | null;
  partnerOf: Int32Array;
  partnerIndex: Map<string, number>;
  partners: number;

  notPublished: Uint8Array;
  notPublishable: (Reason | null)[];
  hoursKind: Uint8Array;
  hoursFrom: Int16Array;
  hoursTo: Int16Array;
  /** Index into hoursPairs: the hours as given (from, to), for the text. */
  hoursPair: Int32Array;
  hoursPairs: Product['activeHours'][];
  /** OUTSIDE_ACTIVE_HOURS by hours pair, made on first use. */
  outsideHours: (Reason | undefined)[];
  /** 1: dailyCap is not null (a number: a count at or over it is refused); likewise totalCap. */
  hasDailyCap: Uint8Array;
  dailyCap: Float64Array;
  hasTotalCap: Uint8Array;
  totalCap: Float64Array;

  rules: RuleColumns;
}

/**
 * `canPublish(product).length === 0` without building the problem list: the same tests, in the same
 * terms. Only a product that fails gets its problems listed.
 */
export function publishable(product: Product): boolean {
  const apr = product.aprBps;
  if (apr === null || apr === undefined || !Number.isFinite(apr) || apr < 0 || apr > MAX_APR_BPS)
    return false;
  const legalName = product.partnerLegalName;
  if (!legalName) return false;
  // Only a name that starts with white space can trim to nothing.
  const first = legalName.charCodeAt(0);
  if (!((first > 32 && first < 127) || (first >= 0x4e00 && first <= 0x9fff)) && legalName.trim() === '')
    return false;
  const { amountMinFen, amountMaxFen, termMinMonths, termMaxMonths } = product;
  if (
    !Number.isFinite(amountMinFen) ||
    !Number.isFinite(amountMaxFen) ||
    amountMinFen <= 0 ||
    amountMinFen > amountMaxFen
  )
    return false;
  if (
    !Number.isInteger(termMinMonths) ||
    !Number.isInteger(termMaxMonths) ||
    termMinMonths <= 0 ||
    termMinMonths > termMaxMonths
  )
    return false;
  const hours = product.activeHours;
  return !hours || (hhmmMinutes(hours.from) !== null && hhmmMinutes(hours.to) !== null);
}

/** The table of a list, or null when ids repeat. */
function buildTable(products: readonly Product[]): Table | null {
  const n = products.length;
  const ids = new Array<string>(n);
  for (let i = 0; i < n; i++) ids[i] = products[i]!.id;
  const order = idOrder(ids);
  if (order === null) return null;

  const t: Table = {
    products,
    ids,
    order,
    indexById: null,
    partnerOf: new Int32Array(n),
    partnerIndex: new Map(),
    partners: 0,
    notPublished: new Uint8Array(n),
    notPublishable: new Array(n).fill(null),
    hoursKind: new Uint8Array(n),
    hoursFrom: new Int16Array(n),
    hoursTo: new Int16Array(n),
    hoursPair: new Int32Array(n),
    hoursPairs: [],
    outsideHours: [],
    hasDailyCap: new Uint8Array(n),
    dailyCap: new Float64Array(n),
    hasTotalCap: new Uint8Array(n),
    totalCap: new Float64Array(n),
    rules: ruleColumns(n),
  };

  const hoursIndex = new Map<unknown, Map<unknown, number>>();
  for (let i = 0; i < n; i++) {
    const p = products[i]!;
    let partner = t.partnerIndex.get(p.partnerId);
    if (partner === undefined) {
      partner = t.partners++;
      t.partnerIndex.set(p.partnerId, partner);
    }
    t.partnerOf[i] = partner;

    t.notPublished[i] = p.status !== 'published' ? 1 : 0;
    if (!publishable(p)) t.notPublishable[i] = notPublishable(p);
    const hours = p.activeHours;
    if (hours) {
      t.hoursPair[i] = pairIndex(hoursIndex, t.hoursPairs, hours.from, hours.to, hours);
      const from = hhmmMinutes(hours.from);
      const to = hhmmMinutes(hours.to);
      if (from === null || to === null) t.hoursKind[i] = CLOSED;
      else if (from !== to) {
        t.hoursKind[i] = WINDOW;
        t.hoursFrom[i] = from;
        t.hoursTo[i] = to;
      }
    }
    // A cap compares as the number it converts to (`count >= cap`).
    if (p.dailyCap !== null) {
      t.hasDailyCap[i] = 1;
      t.dailyCap[i] = p.dailyCap;
    }
    if (p.totalCap !== null) {
      t.hasTotalCap[i] = 1;
      t.totalCap[i] = p.totalCap;
    }
    addRules(t.rules, i, p.rules);
  }
  return t;
}

/**
 * Lists seen, by their first product: the elements (to recognise the same products in the same order,
 * in this array or a new one) and the table, null when it cannot have one (ids repeat).
 */
const KNOWN = new WeakMap<Product, { elements: Product[]; table: Table | null }>();

/**
 * The table of `products`: the one built when the same products were passed before in the same order
 * (the array may be a new one), else a new one, kept for the next call; null when ids repeat. A list
 * that differs from the last one seen with the same first product gets a new table.
 */
export function tableFor(products: readonly Product[]): Table | null {
  const first = products[0];
  if (typeof first !== 'object' || first === null) return buildTable(products);
  const known = KNOWN.get(first);
  if (known !== undefined && sameElements(known.elements, products)) return known.table;
  const elements = [...products];
  const table = buildTable(elements);
  KNOWN.set(first, { elements, table });
  return table;
}

function sameElements(a: readonly Product[], b: readonly Product[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** What checkTable found: the best candidate of each lender, with their positions. */
export interface Checked {
  bests: Product[];
  positions: Map<Product, number>;
}

/**
 * The gates and rules of every product from the table: reasons by position into `reasonsAt`
 * (undefined for a candidate) and the best candidate of each lender.
 */
export function checkTable(
  t: Table,
  a: Applicant,
  counters: Counters,
  lockedProducts: ReadonlySet<string>,
  lockedPartners: ReadonlySet<string>,
  lockout: Reason,
  minute: number,
  reasonsAt: (Reason[] | undefined)[],
): Checked {
  const n = t.products.length;
  const { ids, products, partnerOf, rules } = t;

  const locked = new Uint8Array(n);
  const lockedPartner = new Uint8Array(t.partners);
  if (lockedProducts.size > 0) {
    if (t.indexById === null) {
      t.indexById = new Map();
      for (let i = 0; i < n; i++) t.indexById.set(ids[i]!, i);
    }
    for (const id of lockedProducts) {
      const i = t.indexById.get(id);
      if (i !== undefined) locked[i] = 1;
    }
  }
  for (const id of lockedPartners) {
    const p = t.partnerIndex.get(id);
    if (p !== undefined) lockedPartner[p] = 1;
  }
  const cities = cityCoverage(rules, a);
  const ageFail = new Array<Reason | undefined>(rules.agePairs.length);
  const bestAt = new Int32Array(t.partners).fill(-1);
  /** The reasons of the product at hand, before they are copied into a list of their own. */
  const found: Reason[] = [];

  const {
    dailyCap,
    hasDailyCap,
    hasTotalCap,
    hoursFrom,
    hoursKind,
    hoursPair,
    hoursTo,
    notPublishable,
    notPublished,
    outsideHours,
    totalCap,
  } = t;
  for (let i = 0; i < n; i++) {
    let count = 0;
    if (notPublished[i]) found[count++] = NOT_PUBLISHED;
    const np = notPublishable[i];
    if (np) found[count++] = np;
    const kind = hoursKind[i];
    if (kind !== ALL_DAY) {
      const from = hoursFrom[i]!;
      const to = hoursTo[i]!;
      const open =
        kind === WINDOW && (from < to ? minute >= from && minute < to : minute >= from || minute < to);
      if (!open) {
        const pair = hoursPair[i]!;
        let reason = outsideHours[pair];
        if (reason === undefined) {
          reason = fixed('OUTSIDE_ACTIVE_HOURS', outsideHoursText(t.hoursPairs[pair]!));
          outsideHours[pair] = reason;
        }
        found[count++] = reason;
      }
    }
    if (hasDailyCap[i] || hasTotalCap[i]) {
      const counter = counters[ids[i]!];
      if (hasDailyCap[i] && (counter?.today ?? 0) >= dailyCap[i]!) found[count++] = DAILY_CAP_REACHED;
      if (hasTotalCap[i] && (counter?.total ?? 0) >= totalCap[i]!) found[count++] = TOTAL_CAP_REACHED;
    }
    if (locked[i] || lockedPartner[partnerOf[i]!]) found[count++] = lockout;
    count = checkRulesAt(rules, i, a, cities, ageFail, found, count);

    const reasons = listOf(found, count);
    reasonsAt[i] = reasons;
    if (reasons === undefined) {
      const p = partnerOf[i]!;
      const held = bestAt[p]!;
      if (held < 0 || compareProducts(products[i]!, products[held]!) < 0) bestAt[p] = i;
    }
  }

  const bests: Product[] = [];
  const positions = new Map<Product, number>();
  for (let p = 0; p < bestAt.length; p++) {
    const i = bestAt[p]!;
    if (i < 0) continue;
    bests.push(products[i]!);
    positions.set(products[i]!, i);
  }
  return { bests, positions };
}

/** The explanations of the rules of the product at `i` (offered: every rule satisfied). */
export function explainRules(t: Table, i: number, a: Applicant): Explanation[] {
  return explainRulesAt(t.rules, i, a);
}
