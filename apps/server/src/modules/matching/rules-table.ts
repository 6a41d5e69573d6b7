import { type Applicant, applicant, CREDIT_BIT, JOB_BIT, listBits } from './applicant.ts';
import {
  ageFits,
  ageOutOfRange,
  amountFits,
  amountOutOfRangeFor,
  CITY_EXCLUDED,
  CITY_NOT_COVERED,
  CITY_SERVED,
  CREDIT_RECORD_ACCEPTED,
  CREDIT_RECORD_NOT_ACCEPTED,
  type Explanation,
  JOB_ACCEPTED,
  JOB_NOT_ACCEPTED,
  REQUIREMENTS,
  sesameEnough,
  sesameTooLow,
} from './reasons.ts';
import { C0 } from './time.ts';
import { type ProductRules, type Profile, type Reason, SESAME_ORDER } from './types.ts';

/*
 * The eligibility rules of products (spec §7 "Matching"), one implementation: the rules of a list of
 * products read once into columns (RuleColumns, one row per product), then checked for an applicant
 * by reading the columns (checkRulesAt) — a few typed arrays in order instead of ten objects per
 * product, which at 10 000 products is what the time went into. The match reads a list's columns
 * from its table (table.ts); the console's rule tester reads one rule set (ruleReasons).
 *
 * Every rule set is tabled, with what the checks of the first version answer: values of the declared
 * types as such; a bound of another type as the number a comparison makes of it; a `jobs` or
 * `creditRecord` list as the known values it includes; a `sesameMin` outside the bands as met by
 * everyone (indexOf −1); a city list that is not an array of strings through cityListed on every call.
 * The first version's product-by-product checker is kept as the test oracle (match.oracle.ts).
 */

/** A listed code covers a city when equal, or when it is a province code (`xx0000`) of the same province. */
export function cityListed(cityCode: string, list: readonly string[]): boolean {
  if (!Array.isArray(list)) return cityListedAnyList(cityCode, list);
  if (cityCode.length < 2) return list.includes(cityCode); // no code has a 1-character province
  // Both ways to cover need the same first two code units (`c.slice(0, 2) === cityCode.slice(0, 2)`),
  // which rules out most codes with two reads; then equal, or a code ending in 0000.
  const p0 = cityCode.charCodeAt(0);
  const p1 = cityCode.charCodeAt(1);
  for (let i = 0; i < list.length; i++) {
    const c = list[i]!;
    if (c.charCodeAt(1) !== p1 || c.charCodeAt(0) !== p0) continue;
    if (c === cityCode) return true;
    const n = c.length;
    if (
      n >= 4 &&
      c.charCodeAt(n - 1) === C0 &&
      c.charCodeAt(n - 2) === C0 &&
      c.charCodeAt(n - 3) === C0 &&
      c.charCodeAt(n - 4) === C0
    )
      return true;
  }
  return false;
}

/** cityListed as first written, for a list that is not an array (any iterable). */
function cityListedAnyList(cityCode: string, list: Iterable<string>): boolean {
  for (const c of list) {
    if (c === cityCode) return true;
    if (c.endsWith('0000') && c.slice(0, 2) === cityCode.slice(0, 2)) return true;
  }
  return false;
}

/** The values of a rule set (see readRules). */
export interface RuleValues {
  citiesIn: ProductRules['citiesIn'];
  citiesOut: ProductRules['citiesOut'];
  ageMin: ProductRules['ageMin'];
  ageMax: ProductRules['ageMax'];
  amountMinFen: ProductRules['amountMinFen'];
  amountMaxFen: ProductRules['amountMaxFen'];
  jobs: ProductRules['jobs'];
  /** A bit per yes/no requirement set, in REQUIREMENTS order. */
  required: number;
  sesameMin: ProductRules['sesameMin'];
  creditRecord: ProductRules['creditRecord'];
}

export const noRuleValues = (): RuleValues => ({
  citiesIn: undefined,
  citiesOut: undefined,
  ageMin: undefined,
  ageMax: undefined,
  amountMinFen: undefined,
  amountMaxFen: undefined,
  jobs: undefined,
  required: 0,
  sesameMin: undefined,
  creditRecord: undefined,
});

/**
 * Reads `rules` into `into` (emptied first) with one for-in over the keys present. Rule objects come
 * in as many shapes as there are combinations of rules, which makes each `rules.x` a megamorphic
 * lookup (at 10 000 products, most of the time of the first faster version); for-in reads the values
 * through the object's own enum cache. For rule objects as they come (plain data, e.g. parsed JSON)
 * both read the same values; an absent key and a key holding undefined mean the same.
 */
export function readRules(rules: ProductRules, into: RuleValues): RuleValues {
  into.citiesIn = undefined;
  into.citiesOut = undefined;
  into.ageMin = undefined;
  into.ageMax = undefined;
  into.amountMinFen = undefined;
  into.amountMaxFen = undefined;
  into.jobs = undefined;
  into.required = 0;
  into.sesameMin = undefined;
  into.creditRecord = undefined;
  const values = rules as Record<string, unknown>;
  for (const key in values) {
    const value = values[key];
    switch (key) {
      case 'citiesIn':
        into.citiesIn = value as RuleValues['citiesIn'];
        break;
      case 'citiesOut':
        into.citiesOut = value as RuleValues['citiesOut'];
        break;
      case 'ageMin':
        into.ageMin = value as RuleValues['ageMin'];
        break;
      case 'ageMax':
        into.ageMax = value as RuleValues['ageMax'];
        break;
      case 'amountMinFen':
        into.amountMinFen = value as RuleValues['amountMinFen'];
        break;
      case 'amountMaxFen':
        into.amountMaxFen = value as RuleValues['amountMaxFen'];
        break;
      case 'jobs':
        into.jobs = value as RuleValues['jobs'];
        break;
      case 'requireSocialSecurity':
        if (value) into.required |= 1;
        break;
      case 'requireHousingFund':
        if (value) into.required |= 2;
        break;
      case 'requireInsurance':
        if (value) into.required |= 4;
        break;
      case 'requireHouse':
        if (value) into.required |= 8;
        break;
      case 'requireCar':
        if (value) into.required |= 16;
        break;
      case 'sesameMin':
        into.sesameMin = value as RuleValues['sesameMin'];
        break;
      case 'creditRecord':
        into.creditRecord = value as RuleValues['creditRecord'];
        break;
    }
  }
  return into;
}

/** sesameMinIndex of a rule set without sesameMin; −1 is a sesameMin outside the bands (met by all). */
const NO_SESAME = -2;

/** The rules of a list of products in columns: `x[i]` is about the rules of product `i`. */
export interface RuleColumns {
  /** citiesIn or citiesOut present (truthy). */
  hasCities: Uint8Array;
  citiesIn: Uint8Array;
  citiesOut: Uint8Array;
  /** The lists as given (present ones), for cityListed. */
  inList: unknown[];
  outList: unknown[];
  /** The city lists as an index from city to products, built on first use (see cityCoverage). */
  index: CityIndex | null;
  hasAge: Uint8Array;
  /** ageMin ?? 0, ageMax ?? Infinity. */
  ageLo: Float64Array;
  ageHi: Float64Array;
  /** The bounds as given, for the texts. */
  ageMin: ProductRules['ageMin'][];
  ageMax: ProductRules['ageMax'][];
  hasAmount: Uint8Array;
  amountLo: Float64Array;
  amountHi: Float64Array;
  amountMin: ProductRules['amountMinFen'][];
  amountMax: ProductRules['amountMaxFen'][];
  /** JOB_BIT / CREDIT_BIT of the list | DECLARED, 0 without a list. */
  jobBits: Uint8Array;
  creditBits: Uint8Array;
  /** A bit per yes/no requirement set, in REQUIREMENTS order. */
  required: Uint8Array;
  /** Index of sesameMin in SESAME_ORDER, NO_SESAME without one. */
  sesameMinIndex: Int8Array;
  /** Where readRules puts a rule set while the columns are filled. */
  values: RuleValues;
}

/**
 * Products by a code of their citiesIn, and by the province (first two code units) of a code xx0000;
 * likewise citiesOut. `unindexed`: products with a city list that is not an array of strings, which
 * the index leaves out.
 */
interface CityIndex {
  unindexed: number[];
  inByCode: Map<string, number[]>;
  inByProvince: Map<string, number[]>;
  outByCode: Map<string, number[]>;
  outByProvince: Map<string, number[]>;
}

/** Empty columns for `n` rule sets; fill each with addRules. */
export function ruleColumns(n: number): RuleColumns {
  return {
    hasCities: new Uint8Array(n),
    citiesIn: new Uint8Array(n),
    citiesOut: new Uint8Array(n),
    inList: new Array(n),
    outList: new Array(n),
    index: null,
    hasAge: new Uint8Array(n),
    ageLo: new Float64Array(n),
    ageHi: new Float64Array(n),
    ageMin: new Array(n),
    ageMax: new Array(n),
    hasAmount: new Uint8Array(n),
    amountLo: new Float64Array(n),
    amountHi: new Float64Array(n),
    amountMin: new Array(n),
    amountMax: new Array(n),
    jobBits: new Uint8Array(n),
    creditBits: new Uint8Array(n),
    required: new Uint8Array(n),
    sesameMinIndex: new Int8Array(n).fill(NO_SESAME),
    values: noRuleValues(),
  };
}

function isStringArray(list: unknown): boolean {
  if (!Array.isArray(list)) return false;
  for (let k = 0; k < list.length; k++) if (typeof list[k] !== 'string') return false;
  return true;
}

/**
 * Reads rule set `rules` into row `i` of the columns, every column written (a row may be filled
 * again: the match fills one row per product of a list it sees the first time).
 */
export function addRules(t: RuleColumns, i: number, rules: ProductRules): void {
  const v = readRules(rules, t.values);
  t.hasCities[i] = v.citiesIn || v.citiesOut ? 1 : 0;
  t.citiesIn[i] = v.citiesIn ? 1 : 0;
  t.citiesOut[i] = v.citiesOut ? 1 : 0;
  t.inList[i] = v.citiesIn;
  t.outList[i] = v.citiesOut;
  // A bound compares as the number it converts to (`age < (ageMin ?? 0)`); its text shows it as given.
  if (v.ageMin !== undefined || v.ageMax !== undefined) {
    t.hasAge[i] = 1;
    t.ageLo[i] = v.ageMin ?? 0;
    t.ageHi[i] = v.ageMax ?? Number.POSITIVE_INFINITY;
    t.ageMin[i] = v.ageMin;
    t.ageMax[i] = v.ageMax;
  } else t.hasAge[i] = 0;
  if (v.amountMinFen !== undefined || v.amountMaxFen !== undefined) {
    t.hasAmount[i] = 1;
    t.amountLo[i] = v.amountMinFen ?? 0;
    t.amountHi[i] = v.amountMaxFen ?? Number.POSITIVE_INFINITY;
    t.amountMin[i] = v.amountMinFen;
    t.amountMax[i] = v.amountMaxFen;
  } else t.hasAmount[i] = 0;
  t.jobBits[i] = v.jobs ? listBits(v.jobs, JOB_BIT) : 0;
  t.creditBits[i] = v.creditRecord ? listBits(v.creditRecord, CREDIT_BIT) : 0;
  t.required[i] = v.required;
  t.sesameMinIndex[i] = v.sesameMin !== undefined ? SESAME_ORDER.indexOf(v.sesameMin) : NO_SESAME;
}

/** Adds product `i` under each code of `list` (and each province). */
function indexCities(
  list: readonly string[],
  i: number,
  byCode: Map<string, number[]>,
  byProvince: Map<string, number[]>,
): void {
  const under = (map: Map<string, number[]>, key: string) => {
    const at = map.get(key);
    if (at === undefined) map.set(key, [i]);
    else if (at[at.length - 1] !== i) at.push(i);
  };
  for (const c of list) {
    under(byCode, c);
    if (c.endsWith('0000')) under(byProvince, c.slice(0, 2));
  }
}

function cityIndex(t: RuleColumns): CityIndex {
  const index: CityIndex = {
    unindexed: [],
    inByCode: new Map(),
    inByProvince: new Map(),
    outByCode: new Map(),
    outByProvince: new Map(),
  };
  for (let i = 0; i < t.hasCities.length; i++) {
    if (!t.hasCities[i]) continue;
    const inList = t.citiesIn[i] ? t.inList[i] : undefined;
    const outList = t.citiesOut[i] ? t.outList[i] : undefined;
    if (
      (inList !== undefined && !isStringArray(inList)) ||
      (outList !== undefined && !isStringArray(outList))
    ) {
      index.unindexed.push(i);
      continue;
    }
    if (t.citiesIn[i]) indexCities(t.inList[i] as string[], i, index.inByCode, index.inByProvince);
    if (t.citiesOut[i]) indexCities(t.outList[i] as string[], i, index.outByCode, index.outByProvince);
  }
  return index;
}

/** Marks the products an index covers for the applicant's city. */
function coveredBy(
  covered: Uint8Array,
  a: Applicant,
  byCode: Map<string, number[]>,
  byProvince: Map<string, number[]>,
): void {
  const exact = byCode.get(a.city);
  if (exact) for (const i of exact) covered[i] = 1;
  const province = a.province === null ? undefined : byProvince.get(a.province);
  if (province) for (const i of province) covered[i] = 1;
}

/** Which products' citiesIn and citiesOut list the applicant's city (cityListed), by product. */
export interface CityCoverage {
  coveredIn: Uint8Array;
  coveredOut: Uint8Array;
}

/** Sets the city coverage of row `i` for the applicant: its lists read with cityListed. */
export function coverRow(t: RuleColumns, i: number, a: Applicant, cities: CityCoverage): void {
  cities.coveredOut[i] = t.citiesOut[i] && cityListed(a.city, t.outList[i] as readonly string[]) ? 1 : 0;
  cities.coveredIn[i] = t.citiesIn[i] && cityListed(a.city, t.inList[i] as readonly string[]) ? 1 : 0;
}

/**
 * The city coverage of every row for the applicant, from the index of the city lists (built on the
 * first call), which answers as cityListed does for arrays of strings; other lists through coverRow.
 */
export function cityCoverage(t: RuleColumns, a: Applicant): CityCoverage {
  const n = t.hasCities.length;
  const cities = { coveredIn: new Uint8Array(n), coveredOut: new Uint8Array(n) };
  t.index ??= cityIndex(t);
  coveredBy(cities.coveredIn, a, t.index.inByCode, t.index.inByProvince);
  coveredBy(cities.coveredOut, a, t.index.outByCode, t.index.outByProvince);
  for (const i of t.index.unindexed) coverRow(t, i, a, cities);
  return cities;
}

/**
 * Appends to `found` (from `count`) a reason for each rule of row `i` the applicant breaks, in the
 * order of the first version (city, age, amount, job, requirements, Sesame band, credit record);
 * answers the new count.
 */
export function checkRulesAt(
  t: RuleColumns,
  i: number,
  a: Applicant,
  cities: CityCoverage,
  found: Reason[],
  count: number,
): number {
  if (t.hasCities[i]) {
    if (t.citiesOut[i] && cities.coveredOut[i]) found[count++] = CITY_EXCLUDED;
    if (t.citiesIn[i] && !cities.coveredIn[i]) found[count++] = CITY_NOT_COVERED;
  }
  if (t.hasAge[i]) {
    const age = a.age;
    if (age === null || age < t.ageLo[i]! || age > t.ageHi[i]!)
      found[count++] = ageOutOfRange(a, t.ageMin[i], t.ageMax[i]);
  }
  if (t.hasAmount[i] && (a.amountFen < t.amountLo[i]! || a.amountFen > t.amountHi[i]!))
    found[count++] = amountOutOfRangeFor(a, t.amountMin[i], t.amountMax[i]);
  const jobs = t.jobBits[i]!;
  if (jobs !== 0 && !(jobs & a.jobBit)) found[count++] = JOB_NOT_ACCEPTED;
  const missing = t.required[i]! & ~a.hasBits;
  if (missing !== 0) {
    for (let r = 0; r < REQUIREMENTS.length; r++)
      if (missing & (1 << r)) found[count++] = REQUIREMENTS[r]!.fail;
  }
  const sesame = t.sesameMinIndex[i]!;
  if (sesame >= 0 && !(a.sesameIndex >= sesame))
    found[count++] = sesameTooLow(a, SESAME_ORDER[sesame]!, sesame);
  const credit = t.creditBits[i]!;
  if (credit !== 0 && !(credit & a.creditBit)) found[count++] = CREDIT_RECORD_NOT_ACCEPTED;
  return count;
}

/**
 * The explanations of the rules of row `i`, which the applicant all satisfies (an offered product),
 * in the order of the reasons.
 */
export function explainRulesAt(t: RuleColumns, i: number, a: Applicant): Explanation[] {
  const passed: Explanation[] = [];
  if (t.hasCities[i]) passed.push(CITY_SERVED);
  if (t.hasAge[i]) passed.push(ageFits(a, t.ageMin[i], t.ageMax[i]));
  if (t.hasAmount[i]) passed.push(amountFits(a, t.amountMin[i], t.amountMax[i]));
  if (t.jobBits[i]) passed.push(JOB_ACCEPTED);
  const required = t.required[i]!;
  for (let r = 0; r < REQUIREMENTS.length; r++) if (required & (1 << r)) passed.push(REQUIREMENTS[r]!.pass);
  if (t.sesameMinIndex[i]! !== NO_SESAME) passed.push(sesameEnough(a));
  if (t.creditBits[i]) passed.push(CREDIT_RECORD_ACCEPTED);
  return passed;
}

/**
 * The reasons the applicant breaks one rule set, each broken rule its own (the console's rule tester,
 * for products the match does not see).
 */
export function ruleReasons(profile: Profile, age: number | null, rules: ProductRules): Reason[] {
  const t = ruleColumns(1);
  addRules(t, 0, rules);
  const a = applicant(profile, age);
  const found: Reason[] = [];
  const cities = { coveredIn: new Uint8Array(1), coveredOut: new Uint8Array(1) };
  coverRow(t, 0, a, cities);
  const count = checkRulesAt(t, 0, a, cities, found, 0);
  return found.slice(0, count);
}
