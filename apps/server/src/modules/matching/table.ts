import type { Applicant } from './applicant.ts';
import { MAX_APR_BPS, parseHhmm } from './publish.ts';
import { compareProducts, idOrder } from './ranking.ts';
import {
  DAILY_CAP_REACHED,
  type Explanation,
  listOf,
  NOT_PUBLISHED,
  notPublishable,
  outsideActiveHours,
  TOTAL_CAP_REACHED,
} from './reasons.ts';
import {
  addRules,
  type CityCoverage,
  checkRulesAt,
  cityCoverage,
  coverRow,
  explainRulesAt,
  type RuleColumns,
  ruleColumns,
} from './rules-table.ts';
import { ALL_DAY, CLOSED, WINDOW } from './time.ts';
import type { Counters, Product, Reason } from './types.ts';

/*
 * Products as the match reads them (target: 10 000 products in under 5 ms p99; bench/match.mjs,
 * figures in bench/README.md): a product is read into a row of columns — the gates (published,
 * publishable, active hours, caps) here, the rules in RuleColumns (rules-table.ts) — and checked from
 * the row (checkAt). One implementation, used two ways with the same result:
 *
 * - A list seen the first time: product by product into one row, checked at once (checkRows), which
 *   allocates nothing per product.
 * - The same product objects passed again in the same order (a server keeps its published products in
 *   memory; the array may be a new one): the list in a table built once (see tableFor), a row per
 *   product, the city lists as an index from city to products, the id order sorted. A call then reads a
 *   few arrays in order instead of following ten objects per product, which at 10 000 products is what
 *   the time went into. Products are immutable input: a product object must not be changed in place
 *   once passed (a changed product is a new object, which makes a new list); a product changed in place
 *   would go unnoticed.
 */

/** The gates of products in columns, with their rules: `x[i]` is about product `i`. */
export interface Rows {
  notPublished: Uint8Array;
  notPublishable: (Reason | null)[];
  hoursKind: Uint8Array;
  hoursFrom: Int16Array;
  hoursTo: Int16Array;
  /** The hours as given, for the text. */
  hours: Product['activeHours'][];
  /** 1: dailyCap is not null (a count at or over it, as a comparison converts it, is refused). */
  hasDailyCap: Uint8Array;
  dailyCap: Float64Array;
  hasTotalCap: Uint8Array;
  totalCap: Float64Array;

  rules: RuleColumns;
}

/** A list of products in rows, with what the result needs of the list. */
export interface Table extends Rows {
  products: readonly Product[];
  ids: string[];
  /** Positions in id order (code units), for `excluded`. */
  order: ArrayLike<number>;
  /** Positions by id, made when a call needs it (a product applied to lately). */
  indexById: Map<string, number> | null;
  partnerOf: Int32Array;
  partnerIndex: Map<string, number>;
  partners: number;
}

function rows(n: number): Rows {
  return {
    notPublished: new Uint8Array(n),
    notPublishable: new Array(n).fill(null),
    hoursKind: new Uint8Array(n),
    hoursFrom: new Int16Array(n),
    hoursTo: new Int16Array(n),
    hours: new Array(n),
    hasDailyCap: new Uint8Array(n),
    dailyCap: new Float64Array(n),
    hasTotalCap: new Uint8Array(n),
    totalCap: new Float64Array(n),
    rules: ruleColumns(n),
  };
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
  return !hours || (parseHhmm(hours.from) !== null && parseHhmm(hours.to) !== null);
}

/** Reads product `p` into row `i`, every column written (a row may be filled again). */
function addProduct(t: Rows, i: number, p: Product): void {
  t.notPublished[i] = p.status !== 'published' ? 1 : 0;
  t.notPublishable[i] = publishable(p) ? null : notPublishable(p);
  const hours = p.activeHours;
  t.hoursKind[i] = ALL_DAY;
  t.hours[i] = hours;
  if (hours) {
    const from = parseHhmm(hours.from);
    const to = parseHhmm(hours.to);
    if (from === null || to === null) t.hoursKind[i] = CLOSED;
    else if (from !== to) {
      t.hoursKind[i] = WINDOW;
      t.hoursFrom[i] = from;
      t.hoursTo[i] = to;
    }
  }
  // A cap compares as the number it converts to (`count >= cap`).
  t.hasDailyCap[i] = p.dailyCap !== null ? 1 : 0;
  if (p.dailyCap !== null) t.dailyCap[i] = p.dailyCap;
  t.hasTotalCap[i] = p.totalCap !== null ? 1 : 0;
  if (p.totalCap !== null) t.totalCap[i] = p.totalCap;
  addRules(t.rules, i, p.rules);
}

/** What the checks of one call share. */
export interface Call {
  a: Applicant;
  counters: Counters;
  /** Minutes after Shanghai midnight. */
  minute: number;
  lockout: Reason;
  /** The reasons of the product at hand, before they are copied into a list of their own. */
  found: Reason[];
}

/**
 * The reasons of row `i` (product id `id`, `locked` when applied to lately): the gates, in the order
 * published, publishable, active hours, daily cap, total cap, lockout, then the rules (checkRulesAt);
 * undefined for a candidate.
 */
function checkAt(
  t: Rows,
  i: number,
  id: string,
  locked: boolean,
  cities: CityCoverage,
  c: Call,
): Reason[] | undefined {
  const found = c.found;
  let count = 0;
  if (t.notPublished[i]) found[count++] = NOT_PUBLISHED;
  const np = t.notPublishable[i];
  if (np) found[count++] = np;
  const kind = t.hoursKind[i];
  if (kind !== ALL_DAY) {
    const from = t.hoursFrom[i]!;
    const to = t.hoursTo[i]!;
    const minute = c.minute;
    const open =
      kind === WINDOW && (from < to ? minute >= from && minute < to : minute >= from || minute < to);
    if (!open) found[count++] = outsideActiveHours(c.a, t.hours[i]!);
  }
  if (t.hasDailyCap[i] || t.hasTotalCap[i]) {
    const counter = c.counters[id];
    if (t.hasDailyCap[i] && (counter?.today ?? 0) >= t.dailyCap[i]!) found[count++] = DAILY_CAP_REACHED;
    if (t.hasTotalCap[i] && (counter?.total ?? 0) >= t.totalCap[i]!) found[count++] = TOTAL_CAP_REACHED;
  }
  if (locked) found[count++] = c.lockout;
  count = checkRulesAt(t.rules, i, c.a, cities, found, count);
  return listOf(found, count);
}

/** What a check of a list found: the best candidate of each lender, and how to explain an offer. */
export interface Checked {
  bests: Product[];
  explain: (product: Product) => Explanation[];
}

/**
 * A list seen the first time, product by product through one row: reasons by position into
 * `reasonsAt` (undefined for a candidate), the ids by position into `ids`.
 */
export function checkRows(
  products: readonly Product[],
  c: Call,
  lockedProducts: ReadonlySet<string>,
  lockedPartners: ReadonlySet<string>,
  reasonsAt: (Reason[] | undefined)[],
  ids: string[],
): Checked {
  const row = rows(1);
  const cities: CityCoverage = { coveredIn: new Uint8Array(1), coveredOut: new Uint8Array(1) };
  const anyLock = lockedProducts.size > 0;
  const bestOfLender = new Map<string, Product>();
  for (let i = 0; i < products.length; i++) {
    const product = products[i]!;
    const id = product.id;
    ids[i] = id;
    addProduct(row, 0, product);
    if (row.rules.hasCities[0]) coverRow(row.rules, 0, c.a, cities);
    const locked = anyLock && (lockedProducts.has(id) || lockedPartners.has(product.partnerId));
    const reasons = checkAt(row, 0, id, locked, cities, c);
    reasonsAt[i] = reasons;
    if (reasons === undefined) {
      const held = bestOfLender.get(product.partnerId);
      if (held === undefined || compareProducts(product, held) < 0)
        bestOfLender.set(product.partnerId, product);
    }
  }
  return {
    bests: [...bestOfLender.values()],
    explain: (product) => {
      addRules(row.rules, 0, product.rules);
      return explainRulesAt(row.rules, 0, c.a);
    },
  };
}

/** The table of a list, or null when ids repeat. */
function buildTable(products: readonly Product[]): Table | null {
  const n = products.length;
  const ids = new Array<string>(n);
  for (let i = 0; i < n; i++) ids[i] = products[i]!.id;
  const order = idOrder(ids);
  if (order === null) return null;

  const t: Table = {
    ...rows(n),
    products,
    ids,
    order,
    indexById: null,
    partnerOf: new Int32Array(n),
    partnerIndex: new Map(),
    partners: 0,
  };
  for (let i = 0; i < n; i++) {
    const p = products[i]!;
    let partner = t.partnerIndex.get(p.partnerId);
    if (partner === undefined) {
      partner = t.partners++;
      t.partnerIndex.set(p.partnerId, partner);
    }
    t.partnerOf[i] = partner;
    addProduct(t, i, p);
  }
  return t;
}

/**
 * Lists seen, by their first product: the elements (to recognise the same products in the same order,
 * in this array or a new one) and the table, undefined while the list was seen once, null when it
 * cannot have one (ids repeat).
 */
const KNOWN = new WeakMap<Product, { elements: Product[]; table: Table | null | undefined }>();

/**
 * The table of `products` if the same products were passed before in the same order (the array may be
 * a new one, e.g. `catalog.map((e) => e.engine)` on every call), else undefined. A table is built the
 * second time a list is seen; a list that differs from the last one seen with the same first product
 * counts as seen once.
 */
export function tableFor(products: readonly Product[]): Table | null | undefined {
  const first = products[0];
  if (typeof first !== 'object' || first === null) return undefined;
  const known = KNOWN.get(first);
  if (known === undefined || !sameElements(known.elements, products)) {
    KNOWN.set(first, { elements: [...products], table: undefined });
    return undefined;
  }
  if (known.table === undefined) known.table = buildTable(known.elements);
  return known.table;
}

function sameElements(a: readonly Product[], b: readonly Product[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A list passed again, from its table: reasons by position into `reasonsAt`. */
export function checkTable(
  t: Table,
  c: Call,
  lockedProducts: ReadonlySet<string>,
  lockedPartners: ReadonlySet<string>,
  reasonsAt: (Reason[] | undefined)[],
): Checked {
  const n = t.products.length;
  const { ids, products, partnerOf } = t;

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
  const cities = cityCoverage(t.rules, c.a);
  const bestAt = new Int32Array(t.partners).fill(-1);
  for (let i = 0; i < n; i++) {
    const reasons = checkAt(t, i, ids[i]!, locked[i] === 1 || lockedPartner[partnerOf[i]!] === 1, cities, c);
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
  return { bests, explain: (product) => explainRulesAt(t.rules, positions.get(product)!, c.a) };
}
