import { ageFromIdCard, checkIdCard } from '@lm/shared/validators/id-card';
import { canPublish, MAX_APR_BPS, parseHhmm } from './publish.ts';
import {
  type Counters,
  type CreditRecord,
  type History,
  type Job,
  MATCH_DEFAULTS,
  type MatchOptions,
  type MatchResult,
  type Product,
  type ProductRules,
  type Profile,
  type RankedProduct,
  type Reason,
  type ReasonCode,
  type RuleKind,
  SESAME_ORDER,
  type SesameBand,
} from './types.ts';

/*
 * Speed (target: 10 000 products in under 5 ms p99; bench/match.mjs, figures in bench/README.md).
 *
 * A list of products is matched in one of two ways, with the same result:
 *
 * - The first time a list of products is seen, product by product, doing only what the answer needs:
 *   amounts formatted without Intl, active hours and the publish check without regular expressions
 *   (canPublish runs only for a product that fails), the rules read with one for-in (see readRules),
 *   reasons with a fixed text shared, rule explanations only for the offered products.
 * - When the same product objects come again in the same order (a server keeps its published products
 *   in memory; the array may be a new one), from a table of the list built once (see Table, tableFor):
 *   what depends on the products alone in columns of typed arrays, the city lists as an index from
 *   city to products, the id order sorted. A call then reads a few arrays in order instead of following
 *   ten objects per product, which at 10 000 products is what the time went into. Products are
 *   immutable input: a product object must not be changed in place once passed (a changed product is
 *   a new object, which makes a new list); a product changed in place would go unnoticed.
 *
 * Either way, the offers are picked from the best candidate of each lender, and `excluded` is ordered
 * by a radix sort of the (decimal) ids. Reason texts are those of the first version.
 */

const DAY_MS = 86_400_000;
const SHANGHAI_OFFSET_MS = 8 * 3600_000;

/** Days since the epoch of the Shanghai calendar day containing `at`. */
export function shanghaiDayNumber(at: Date): number {
  return Math.floor((at.getTime() + SHANGHAI_OFFSET_MS) / DAY_MS);
}

/** Shanghai calendar days from `from` to `to` (0 on the same day). */
export function shanghaiDaysBetween(from: Date, to: Date): number {
  return shanghaiDayNumber(to) - shanghaiDayNumber(from);
}

/** Minutes after Shanghai midnight. */
function shanghaiMinuteOfDay(at: Date): number {
  const ms = (((at.getTime() + SHANGHAI_OFFSET_MS) % DAY_MS) + DAY_MS) % DAY_MS;
  return Math.floor(ms / 60_000);
}

const C0 = 48; // '0'
const COLON = 58; // ':'

/**
 * parseHhmm (publish.ts) without the regular expression: minutes after midnight of `HH:MM`
 * (00:00–23:59), or null when malformed.
 */
function hhmmMinutes(value: string): number | null {
  if (typeof value !== 'string') return parseHhmm(value);
  if (value.length !== 5 || value.charCodeAt(2) !== COLON) return null;
  const h1 = value.charCodeAt(0) - C0;
  const h2 = value.charCodeAt(1) - C0;
  const m1 = value.charCodeAt(3) - C0;
  const m2 = value.charCodeAt(4) - C0;
  if (h1 < 0 || h1 > 2 || h2 < 0 || h2 > 9 || m1 < 0 || m1 > 5 || m2 < 0 || m2 > 9) return null;
  if (h1 === 2 && h2 > 3) return null;
  return (h1 * 10 + h2) * 60 + m1 * 10 + m2;
}

/** Active hours as a table keeps them: open all day, closed (malformed), or a window. */
const ALL_DAY = 0;
const CLOSED = 1;
const WINDOW = 2;

/** Whether the window is open at `minute` after Shanghai midnight (see isWithinActiveHours). */
function openAt(activeHours: Product['activeHours'], minute: number): boolean {
  if (!activeHours) return true;
  const from = hhmmMinutes(activeHours.from);
  const to = hhmmMinutes(activeHours.to);
  if (from === null || to === null) return false;
  if (from === to) return true;
  return from < to ? minute >= from && minute < to : minute >= from || minute < to;
}

/**
 * Whether `now` is inside the Shanghai window: `from` inclusive, `to` exclusive; a window with
 * from > to spans midnight; from = to is open all day; no window is open all day. A malformed
 * window is closed.
 */
export function isWithinActiveHours(activeHours: Product['activeHours'], now: Date): boolean {
  return openAt(activeHours, shanghaiMinuteOfDay(now));
}

/**
 * `canPublish(product).length === 0` without building the problem list: the same tests, in the same
 * terms. Only a product that fails gets its problems listed.
 */
function publishable(product: Product): boolean {
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

/** Age from a valid ID at `now` (Shanghai calendar), else the stated age, else null (unknown). */
export function profileAge(profile: Profile, now: Date): number | null {
  if (profile.identity && checkIdCard(profile.identity, now) === null)
    return ageFromIdCard(profile.identity, now);
  return typeof profile.age === 'number' && Number.isFinite(profile.age) ? profile.age : null;
}

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

/** `${(fen / 100).toLocaleString('en-US', { maximumFractionDigits: 2 })}元`, as the console shows amounts. */
function yuanSlow(fen: number): string {
  return `${(fen / 100).toLocaleString('en-US', { maximumFractionDigits: 2 })}元`;
}

/**
 * yuanSlow without Intl (a formatter per call, the largest cost of the first version) for whole fen
 * from 1 to 10^12: thousands separated by commas, up to two decimals without trailing zeros. Anything
 * else goes through yuanSlow.
 */
function yuan(fen: number): string {
  if (!(Number.isInteger(fen) && fen > 0 && fen <= 1e12)) return yuanSlow(fen);
  const cents = fen % 100;
  let whole = (fen - cents) / 100;
  let digits = '';
  while (whole >= 1000) {
    const group = whole % 1000;
    digits = `,${group < 10 ? '00' : group < 100 ? '0' : ''}${group}${digits}`;
    whole = (whole - group) / 1000;
  }
  digits = `${whole}${digits}`;
  if (cents === 0) return `${digits}元`;
  if (cents < 10) return `${digits}.0${cents}元`;
  return `${digits}.${cents % 10 === 0 ? cents / 10 : cents}元`;
}

function amountRange(amountMinFen: number | undefined, amountMaxFen: number | undefined): string {
  return `${amountMinFen !== undefined ? yuan(amountMinFen) : '不限'}-${
    amountMaxFen !== undefined ? yuan(amountMaxFen) : '不限'
  }`;
}

const SESAME_LABEL: Record<SesameBand, string> = {
  none: '无芝麻分',
  below600: '600分以下',
  '600to650': '600-650分',
  '650to700': '650-700分',
  '700plus': '700分以上',
};

/**
 * A reason object given to every product it applies to, in one result or (for the constant texts
 * below, and texts that depend on a product alone) in every result: one object per product and reason
 * was most of the memory a call allocated, and collecting it lengthened the slowest calls. Frozen, so
 * that a caller changing one cannot change the others.
 */
function fixed(code: ReasonCode, text: string): Reason {
  return Object.freeze({ code, text });
}

const NOT_PUBLISHED = fixed('NOT_PUBLISHED', '产品未上架');
const DAILY_CAP_REACHED = fixed('DAILY_CAP_REACHED', '该产品今日名额已满');
const TOTAL_CAP_REACHED = fixed('TOTAL_CAP_REACHED', '该产品总名额已满');
const CITY_EXCLUDED = fixed('CITY_EXCLUDED', '所在城市不在该产品服务范围');
const CITY_NOT_COVERED = fixed('CITY_NOT_COVERED', '所在城市未开通该产品');
const JOB_NOT_ACCEPTED = fixed('JOB_NOT_ACCEPTED', '职业不符合该产品要求');
const CREDIT_RECORD_NOT_ACCEPTED = fixed('CREDIT_RECORD_NOT_ACCEPTED', '信用记录不符合该产品要求');
const SAME_LENDER = fixed('SAME_LENDER', '同一机构只推荐排序最靠前的一款产品');
const LENDER_LIMIT = fixed('LENDER_LIMIT', '本期可匹配的机构数已达上限');

/** An explanation of a rule satisfied (RankedProduct.matched); shared and frozen as reasons are. */
type Explanation = { rule: RuleKind; text: string };

function explained(rule: RuleKind, text: string): Explanation {
  return Object.freeze({ rule, text });
}

const CITY_SERVED = explained('city', '所在城市在服务范围内');
const JOB_ACCEPTED = explained('job', '职业符合要求');
const CREDIT_RECORD_ACCEPTED = explained('creditRecord', '信用记录符合要求');

function notPublishable(product: Product): Reason {
  const problems = canPublish(product).map((p) => p.text);
  return fixed('NOT_PUBLISHABLE', `产品不满足上架条件：${problems.join('；')}`);
}

function outsideHoursText(hours: Product['activeHours']): string {
  return `不在产品营业时段（${hours?.from}-${hours?.to}）`;
}

/**
 * The yes/no requirements (requireSocialSecurity, requireHousingFund, requireInsurance, requireHouse,
 * requireCar), in the order their reasons are given; Applicant.hasBits and RuleValues.required follow it.
 */
const REQUIREMENTS: readonly { pass: Explanation; fail: Reason }[] = (
  [
    ['socialSecurity', 'SOCIAL_SECURITY_REQUIRED', '社保'],
    ['housingFund', 'HOUSING_FUND_REQUIRED', '公积金'],
    ['insurance', 'INSURANCE_REQUIRED', '商业保险'],
    ['house', 'HOUSE_REQUIRED', '房产'],
    ['car', 'CAR_REQUIRED', '车产'],
  ] as const
).map(([rule, code, label]) => ({
  pass: explained(rule, `有${label}`),
  fail: fixed(code, `该产品要求有${label}`),
}));

/** Bits of the jobs and credit records a table keeps for a rule's list; DECLARED marks a list present. */
const JOB_BIT: Readonly<Record<Job, number>> = {
  employee: 1,
  selfEmployed: 2,
  businessOwner: 4,
  freelancer: 8,
};
const CREDIT_BIT: Readonly<Record<CreditRecord, number>> = {
  none: 1,
  good: 2,
  fewOverdues: 4,
  manyOverdues: 8,
};
const DECLARED = 16;

/** The bits of a list of known values, or -1 when it holds anything else. */
function bitsOf(list: unknown, bits: Readonly<Record<string, number>>): number {
  if (!Array.isArray(list)) return -1;
  let mask = DECLARED;
  for (const value of list) {
    if (typeof value !== 'string' || !Object.hasOwn(bits, value)) return -1;
    mask |= bits[value]!;
  }
  return mask;
}

/** The bit of one value, 0 for anything else. */
const bitOf = (value: unknown, bits: Readonly<Record<string, number>>) =>
  typeof value === 'string' && Object.hasOwn(bits, value) ? bits[value]! : 0;

/** The values of a rule set (see readRules). */
interface RuleValues {
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

const noRuleValues = (): RuleValues => ({
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
function readRules(rules: ProductRules, into: RuleValues): RuleValues {
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

/** Reasons (or explanations) made in one call, by the two values their text depends on (a rule's bounds). */
type ByPair<T> = Map<unknown, Map<unknown, T>>;
type ReasonsByPair = ByPair<Reason>;

function remembered<T>(cache: ByPair<T>, x: unknown, y: unknown): T | undefined {
  return cache.get(x)?.get(y);
}

function remember<T>(cache: ByPair<T>, x: unknown, y: unknown, reason: T): T {
  let inner = cache.get(x);
  if (inner === undefined) {
    inner = new Map();
    cache.set(x, inner);
  }
  inner.set(y, reason);
  return reason;
}

/** What the checks need of the applicant, and the reasons made for them, once per call. */
interface Applicant {
  profile: Profile;
  age: number | null;
  city: string;
  /** First two code units of the city, or null when it is shorter (no province code covers it then). */
  province: string | null;
  amountFen: number;
  /** Has social security, housing fund, insurance, house, car (REQUIREMENTS order). */
  has: readonly [boolean, boolean, boolean, boolean, boolean];
  /** The same as bits. */
  hasBits: number;
  jobBit: number;
  creditBit: number;
  sesameIndex: number;
  /** SESAME_TOO_LOW by index of the band required, made on first use; likewise the following. */
  sesameFail: (Reason | undefined)[];
  /** AGE_OUT_OF_RANGE by ageMin, ageMax. */
  ageFail: ReasonsByPair;
  /** AMOUNT_OUT_OF_RANGE by amountMinFen, amountMaxFen (positive ones: yuan(-0) is not yuan(0)). */
  amountFail: ReasonsByPair;
  /** OUTSIDE_ACTIVE_HOURS by from, to. */
  hoursFail: ReasonsByPair;
  /** The explanations of the age, amount and Sesame rules, likewise. */
  agePass: ByPair<Explanation>;
  amountPass: ByPair<Explanation>;
  sesamePass: Explanation | undefined;
  /** Where readRules puts the product's rules (one at a time). */
  values: RuleValues;
}

function applicant(profile: Profile, age: number | null): Applicant {
  const city = profile.workCityCode;
  const has = [
    profile.socialSecurity !== 'none',
    profile.housingFund !== 'none',
    profile.insurance !== 'none',
    profile.houseProperty !== 'none',
    profile.carProperty !== 'none',
  ] as const;
  let hasBits = 0;
  for (let i = 0; i < has.length; i++) if (has[i]) hasBits |= 1 << i;
  return {
    profile,
    age,
    city,
    province: city.length >= 2 ? city.slice(0, 2) : null,
    amountFen: profile.applyLimitFen,
    has,
    hasBits,
    jobBit: bitOf(profile.job, JOB_BIT),
    creditBit: bitOf(profile.creditInvestigation, CREDIT_BIT),
    sesameIndex: SESAME_ORDER.indexOf(profile.sesameCredit),
    sesameFail: [],
    ageFail: new Map(),
    amountFail: new Map(),
    hoursFail: new Map(),
    agePass: new Map(),
    amountPass: new Map(),
    sesamePass: undefined,
    values: noRuleValues(),
  };
}

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

/** A new list of the first `count` reasons of `found`, undefined for none (array literals: exact size). */
function listOf(found: readonly Reason[], count: number): Reason[] | undefined {
  switch (count) {
    case 0:
      return undefined;
    case 1:
      return [found[0]!];
    case 2:
      return [found[0]!, found[1]!];
    case 3:
      return [found[0]!, found[1]!, found[2]!];
    case 4:
      return [found[0]!, found[1]!, found[2]!, found[3]!];
    default:
      return found.slice(0, count);
  }
}

function sesameTooLow(a: Applicant, min: SesameBand, minIndex: number): Reason {
  let reason = minIndex >= 0 ? a.sesameFail[minIndex] : undefined;
  if (reason === undefined) {
    reason = fixed(
      'SESAME_TOO_LOW',
      `芝麻分${SESAME_LABEL[a.profile.sesameCredit]}，该产品要求${SESAME_LABEL[min]}及以上`,
    );
    if (minIndex >= 0) a.sesameFail[minIndex] = reason;
  }
  return reason;
}

function ageOutOfRange(a: Applicant, ageMin: number | undefined, ageMax: number | undefined): Reason {
  let reason = remembered(a.ageFail, ageMin, ageMax);
  if (reason === undefined) {
    const range = `${ageMin ?? '不限'}-${ageMax ?? '不限'}岁`;
    reason = fixed(
      'AGE_OUT_OF_RANGE',
      a.age === null ? `无法确认年龄，该产品要求${range}` : `年龄${a.age}岁，不在该产品要求的${range}内`,
    );
    remember(a.ageFail, ageMin, ageMax, reason);
  }
  return reason;
}

function amountOutOfRange(
  a: Applicant,
  amountMinFen: number | undefined,
  amountMaxFen: number | undefined,
): Reason {
  const cacheable =
    (amountMinFen === undefined || amountMinFen > 0) && (amountMaxFen === undefined || amountMaxFen > 0);
  let reason = cacheable ? remembered(a.amountFail, amountMinFen, amountMaxFen) : undefined;
  if (reason === undefined) {
    reason = fixed(
      'AMOUNT_OUT_OF_RANGE',
      `申请金额不在该产品的${amountRange(amountMinFen, amountMaxFen)}范围内`,
    );
    if (cacheable) remember(a.amountFail, amountMinFen, amountMaxFen, reason);
  }
  return reason;
}

function outsideActiveHours(a: Applicant, hours: Product['activeHours']): Reason {
  const from = hours?.from;
  const to = hours?.to;
  return (
    remembered(a.hoursFail, from, to) ??
    remember(a.hoursFail, from, to, fixed('OUTSIDE_ACTIVE_HOURS', outsideHoursText(hours)))
  );
}

type Passed = Explanation[];

function ageFits(a: Applicant, ageMin: number | undefined, ageMax: number | undefined): Explanation {
  return (
    remembered(a.agePass, ageMin, ageMax) ??
    remember(
      a.agePass,
      ageMin,
      ageMax,
      explained('age', `年龄${a.age}岁，符合${ageMin ?? '不限'}-${ageMax ?? '不限'}岁`),
    )
  );
}

function amountFits(
  a: Applicant,
  amountMinFen: number | undefined,
  amountMaxFen: number | undefined,
): Explanation {
  // By value, with -0 apart from 0 (yuan(-0) is "-0元").
  const x = Object.is(amountMinFen, -0) ? '-0' : amountMinFen;
  const y = Object.is(amountMaxFen, -0) ? '-0' : amountMaxFen;
  return (
    remembered(a.amountPass, x, y) ??
    remember(
      a.amountPass,
      x,
      y,
      explained('amount', `申请金额在${amountRange(amountMinFen, amountMaxFen)}范围内`),
    )
  );
}

function sesameEnough(a: Applicant): Explanation {
  a.sesamePass ??= explained('sesame', `芝麻分${SESAME_LABEL[a.profile.sesameCredit]}，达到要求`);
  return a.sesamePass;
}

/**
 * Checks every rule the product declares, in the order of checkRules: appends a reason for each rule
 * the applicant breaks to `reasons` (created when needed) and returns it; when `passed` is given,
 * appends to it the explanation of each rule satisfied. The matching asks for explanations only for
 * the products it offers.
 */
function checkRuleSet(
  a: Applicant,
  rules: ProductRules,
  reasons: Reason[] | undefined,
  passed: Passed | undefined,
): Reason[] | undefined {
  const v = readRules(rules, a.values);

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
      reasons = add(reasons, amountOutOfRange(a, amountMinFen, amountMaxFen));
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

/** Ranking: priority desc, price desc, APR asc, then id (code-unit order). */
export function compareProducts(a: Product, b: Product): number {
  return (
    b.priority - a.priority ||
    b.priceFen - a.priceFen ||
    (a.aprBps ?? Number.POSITIVE_INFINITY) - (b.aprBps ?? Number.POSITIVE_INFINITY) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

function nonNegativeInteger(name: string, value: number): number {
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
function best(items: Product[], k: number): Product[] {
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
function idOrder(ids: readonly string[]): ArrayLike<number> | null {
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
function firstDuplicate(products: readonly Product[]): string {
  const seen = new Set<string>();
  for (const p of products) {
    if (seen.has(p.id)) return p.id;
    seen.add(p.id);
  }
  return '';
}

/* —————————————————————— a list seen for the first time —————————————————————— */

/**
 * The gates and rules of every product, one product at a time (a list seen for the first time):
 * reasons by position (undefined for a candidate), the ids by position into `ids`, and the best
 * candidate of each lender.
 */
function checkEach(
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
      reasons = add(reasons, outsideActiveHours(a, product.activeHours));
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

/* —————————————————————— a list passed again: its table —————————————————————— */

/**
 * A product list in columns, built the second time the same list is passed (see tableFor). Column
 * `x[i]` is about `products[i]`. A product whose rules hold anything but plain values (arrays of
 * strings, numbers, known bands) keeps `plain[i] = 0` and has its rules checked as on first sight.
 */
interface Table {
  /** The list's products. */
  products: readonly Product[];
  ids: string[];
  order: ArrayLike<number>;
  indexById: Map<string, number>;
  partnerOf: Int32Array;
  partnerIndex: Map<string, number>;
  partners: number;

  notPublished: Uint8Array;
  notPublishable: (Reason | null)[];
  hoursKind: Uint8Array;
  hoursFrom: Int16Array;
  hoursTo: Int16Array;
  /** OUTSIDE_ACTIVE_HOURS of a product, made on first use. */
  outsideHours: (Reason | undefined)[];
  /** 1: dailyCap is a number; likewise totalCap. */
  hasDailyCap: Uint8Array;
  dailyCap: Float64Array;
  hasTotalCap: Uint8Array;
  totalCap: Float64Array;

  plain: Uint8Array;
  /** citiesIn or citiesOut present (truthy). */
  hasCities: Uint8Array;
  citiesIn: Uint8Array;
  citiesOut: Uint8Array;
  /** Products by a code of their citiesIn, and by the province (first two code units) of a code xx0000. */
  inByCode: Map<string, number[]>;
  inByProvince: Map<string, number[]>;
  outByCode: Map<string, number[]>;
  outByProvince: Map<string, number[]>;
  hasAge: Uint8Array;
  /** ageMin ?? 0, ageMax ?? Infinity. */
  ageLo: Float64Array;
  ageHi: Float64Array;
  /** Index into agePairs: the bounds as given, for the text. */
  agePair: Int32Array;
  agePairs: [ProductRules['ageMin'], ProductRules['ageMax']][];
  hasAmount: Uint8Array;
  amountLo: Float64Array;
  amountHi: Float64Array;
  amountPair: Int32Array;
  amountPairs: [ProductRules['amountMinFen'], ProductRules['amountMaxFen']][];
  /** AMOUNT_OUT_OF_RANGE by amount pair, made on first use. */
  amountFail: (Reason | undefined)[];
  /** JOB_BIT / CREDIT_BIT of the list | DECLARED, 0 without a list. */
  jobBits: Uint8Array;
  creditBits: Uint8Array;
  required: Uint8Array;
  /** Index of sesameMin in SESAME_ORDER, -1 without one. */
  sesameMinIndex: Int8Array;
}

/**
 * Lists seen, by their first product: the elements (to recognise the same products in the same order,
 * in this array or a new one) and the table, undefined while the list was seen once, null when it
 * cannot have one.
 */
const KNOWN = new WeakMap<Product, { elements: Product[]; table: Table | null | undefined }>();

/**
 * The table of `products` if the same products were passed before in the same order (the array may be
 * a new one, e.g. `catalog.map((e) => e.engine)` on every call), else undefined. A table is built the
 * second time a list is seen; a list that differs from the last one seen with the same first product
 * counts as seen once.
 */
function tableFor(products: readonly Product[]): Table | undefined {
  const first = products[0];
  if (typeof first !== 'object' || first === null) return undefined;
  const known = KNOWN.get(first);
  if (known === undefined || !sameElements(known.elements, products)) {
    KNOWN.set(first, { elements: [...products], table: undefined });
    return undefined;
  }
  if (known.table === undefined) known.table = buildTable(known.elements);
  return known.table ?? undefined;
}

function sameElements(a: readonly Product[], b: readonly Product[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The index in `pairs` of the pair with keys x, y (as Map keys), `pair` appended if new. */
function pairIndex<P>(
  index: Map<unknown, Map<unknown, number>>,
  pairs: P[],
  x: unknown,
  y: unknown,
  pair: P,
): number {
  let inner = index.get(x);
  if (inner === undefined) {
    inner = new Map();
    index.set(x, inner);
  }
  let at = inner.get(y);
  if (at === undefined) {
    at = pairs.length;
    pairs.push(pair);
    inner.set(y, at);
  }
  return at;
}

/** Adds product `i` under each code of `list` (and each province); false when the list is not plain. */
function indexCities(
  list: unknown,
  i: number,
  byCode: Map<string, number[]>,
  byProvince: Map<string, number[]>,
): boolean {
  if (!Array.isArray(list)) return false;
  for (const c of list) if (typeof c !== 'string') return false;
  const under = (map: Map<string, number[]>, key: string) => {
    const at = map.get(key);
    if (at === undefined) map.set(key, [i]);
    else if (at[at.length - 1] !== i) at.push(i);
  };
  for (const c of list as string[]) {
    under(byCode, c);
    if (c.endsWith('0000')) under(byProvince, c.slice(0, 2));
  }
  return true;
}

const isCap = (cap: unknown) => cap === null || typeof cap === 'number';
const isBound = (x: unknown) => x === undefined || x === null || typeof x === 'number';

/** The table of a list, or null when a product's id, lender or caps are not plain, or ids repeat. */
function buildTable(products: readonly Product[]): Table | null {
  const n = products.length;
  const ids = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    const p = products[i]!;
    if (
      typeof p.id !== 'string' ||
      typeof p.partnerId !== 'string' ||
      !isCap(p.dailyCap) ||
      !isCap(p.totalCap)
    )
      return null;
    ids[i] = p.id;
  }
  const order = idOrder(ids);
  if (order === null) return null;

  const t: Table = {
    products,
    ids,
    order,
    indexById: new Map(),
    partnerOf: new Int32Array(n),
    partnerIndex: new Map(),
    partners: 0,
    notPublished: new Uint8Array(n),
    notPublishable: new Array(n).fill(null),
    hoursKind: new Uint8Array(n),
    hoursFrom: new Int16Array(n),
    hoursTo: new Int16Array(n),
    outsideHours: new Array(n).fill(undefined),
    hasDailyCap: new Uint8Array(n),
    dailyCap: new Float64Array(n),
    hasTotalCap: new Uint8Array(n),
    totalCap: new Float64Array(n),
    plain: new Uint8Array(n),
    hasCities: new Uint8Array(n),
    citiesIn: new Uint8Array(n),
    citiesOut: new Uint8Array(n),
    inByCode: new Map(),
    inByProvince: new Map(),
    outByCode: new Map(),
    outByProvince: new Map(),
    hasAge: new Uint8Array(n),
    ageLo: new Float64Array(n),
    ageHi: new Float64Array(n),
    agePair: new Int32Array(n),
    agePairs: [],
    hasAmount: new Uint8Array(n),
    amountLo: new Float64Array(n),
    amountHi: new Float64Array(n),
    amountPair: new Int32Array(n),
    amountPairs: [],
    amountFail: [],
    jobBits: new Uint8Array(n),
    creditBits: new Uint8Array(n),
    required: new Uint8Array(n),
    sesameMinIndex: new Int8Array(n),
  };
  const ageIndex = new Map<unknown, Map<unknown, number>>();
  const amountIndex = new Map<unknown, Map<unknown, number>>();
  const v = noRuleValues();

  for (let i = 0; i < n; i++) {
    const p = products[i]!;
    t.indexById.set(p.id, i);
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
      const from = hhmmMinutes(hours.from);
      const to = hhmmMinutes(hours.to);
      if (from === null || to === null) t.hoursKind[i] = CLOSED;
      else if (from !== to) {
        t.hoursKind[i] = WINDOW;
        t.hoursFrom[i] = from;
        t.hoursTo[i] = to;
      }
    }
    if (p.dailyCap !== null) {
      t.hasDailyCap[i] = 1;
      t.dailyCap[i] = p.dailyCap;
    }
    if (p.totalCap !== null) {
      t.hasTotalCap[i] = 1;
      t.totalCap[i] = p.totalCap;
    }

    readRules(p.rules, v);
    const jobs = v.jobs ? bitsOf(v.jobs, JOB_BIT) : 0;
    const credit = v.creditRecord ? bitsOf(v.creditRecord, CREDIT_BIT) : 0;
    const sesame = v.sesameMin !== undefined ? SESAME_ORDER.indexOf(v.sesameMin) : -1;
    const plain =
      jobs >= 0 &&
      credit >= 0 &&
      (v.sesameMin === undefined || sesame >= 0) &&
      isBound(v.ageMin) &&
      isBound(v.ageMax) &&
      isBound(v.amountMinFen) &&
      isBound(v.amountMaxFen) &&
      (!v.citiesIn || indexCities(v.citiesIn, i, t.inByCode, t.inByProvince)) &&
      (!v.citiesOut || indexCities(v.citiesOut, i, t.outByCode, t.outByProvince));
    if (!plain) continue; // checked from the rules object, as on first sight
    t.plain[i] = 1;
    t.hasCities[i] = v.citiesIn || v.citiesOut ? 1 : 0;
    t.citiesIn[i] = v.citiesIn ? 1 : 0;
    t.citiesOut[i] = v.citiesOut ? 1 : 0;
    if (v.ageMin !== undefined || v.ageMax !== undefined) {
      t.hasAge[i] = 1;
      t.ageLo[i] = v.ageMin ?? 0;
      t.ageHi[i] = v.ageMax ?? Number.POSITIVE_INFINITY;
      t.agePair[i] = pairIndex(ageIndex, t.agePairs, v.ageMin, v.ageMax, [v.ageMin, v.ageMax]);
    }
    if (v.amountMinFen !== undefined || v.amountMaxFen !== undefined) {
      t.hasAmount[i] = 1;
      t.amountLo[i] = v.amountMinFen ?? 0;
      t.amountHi[i] = v.amountMaxFen ?? Number.POSITIVE_INFINITY;
      // By value, with -0 apart from 0 (yuan(-0) is "-0元").
      t.amountPair[i] = pairIndex(
        amountIndex,
        t.amountPairs,
        Object.is(v.amountMinFen, -0) ? '-0' : v.amountMinFen,
        Object.is(v.amountMaxFen, -0) ? '-0' : v.amountMaxFen,
        [v.amountMinFen, v.amountMaxFen],
      );
    }
    t.jobBits[i] = jobs;
    t.creditBits[i] = credit;
    t.required[i] = v.required;
    t.sesameMinIndex[i] = sesame;
  }
  return t;
}

/** Marks the products a city list of the table covers for the applicant's city. */
function coveredBy(
  t: Table,
  a: Applicant,
  byCode: Map<string, number[]>,
  byProvince: Map<string, number[]>,
): Uint8Array {
  const covered = new Uint8Array(t.products.length);
  const exact = byCode.get(a.city);
  if (exact) for (const i of exact) covered[i] = 1;
  const province = a.province === null ? undefined : byProvince.get(a.province);
  if (province) for (const i of province) covered[i] = 1;
  return covered;
}

/**
 * The gates and rules of every product from the table: reasons by position (undefined for a
 * candidate) and the best candidate of each lender.
 */
function checkTable(
  t: Table,
  a: Applicant,
  counters: Counters,
  lockedProducts: ReadonlySet<string>,
  lockedPartners: ReadonlySet<string>,
  lockout: Reason,
  minute: number,
  reasonsAt: (Reason[] | undefined)[],
): Product[] {
  const n = t.products.length;
  const { ids, products, partnerOf } = t;

  const locked = new Uint8Array(n);
  const lockedPartner = new Uint8Array(t.partners);
  for (const id of lockedProducts) {
    const i = t.indexById.get(id);
    if (i !== undefined) locked[i] = 1;
  }
  for (const id of lockedPartners) {
    const p = t.partnerIndex.get(id);
    if (p !== undefined) lockedPartner[p] = 1;
  }
  const coveredIn = coveredBy(t, a, t.inByCode, t.inByProvince);
  const coveredOut = coveredBy(t, a, t.outByCode, t.outByProvince);
  const ageFail = new Array<Reason | undefined>(t.agePairs.length);
  const { age, amountFen, hasBits, jobBit, creditBit, sesameIndex } = a;
  const bestAt = new Int32Array(t.partners).fill(-1);
  /** The reasons of the product at hand, before they are copied into a list of their own. */
  const found: Reason[] = [];

  const {
    hasAge,
    ageHi,
    ageLo,
    agePair,
    agePairs,
    hasAmount,
    amountFail,
    amountHi,
    amountLo,
    amountPair,
    amountPairs,
    hasCities,
    citiesIn,
    citiesOut,
    creditBits,
    dailyCap,
    hasDailyCap,
    hasTotalCap,
    hoursFrom,
    hoursKind,
    hoursTo,
    jobBits,
    notPublishable,
    notPublished,
    outsideHours,
    plain,
    required,
    sesameMinIndex,
    totalCap,
  } = t;
  for (let i = 0; i < n; i++) {
    let reasons: Reason[] | undefined;
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
        let reason = outsideHours[i];
        if (reason === undefined) {
          reason = fixed('OUTSIDE_ACTIVE_HOURS', outsideHoursText(products[i]!.activeHours));
          outsideHours[i] = reason;
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

    if (!plain[i]) reasons = checkRuleSet(a, products[i]!.rules, listOf(found, count), undefined);
    else {
      if (hasCities[i]) {
        if (citiesOut[i] && coveredOut[i]) found[count++] = CITY_EXCLUDED;
        if (citiesIn[i] && !coveredIn[i]) found[count++] = CITY_NOT_COVERED;
      }
      if (hasAge[i] && (age === null || age < ageLo[i]! || age > ageHi[i]!)) {
        const pair = agePair[i]!;
        let reason = ageFail[pair];
        if (reason === undefined) {
          const [ageMin, ageMax] = agePairs[pair]!;
          reason = ageOutOfRange(a, ageMin, ageMax);
          ageFail[pair] = reason;
        }
        found[count++] = reason;
      }
      if (hasAmount[i] && (amountFen < amountLo[i]! || amountFen > amountHi[i]!)) {
        const pair = amountPair[i]!;
        let reason = amountFail[pair];
        if (reason === undefined) {
          const [amountMinFen, amountMaxFen] = amountPairs[pair]!;
          reason = fixed(
            'AMOUNT_OUT_OF_RANGE',
            `申请金额不在该产品的${amountRange(amountMinFen, amountMaxFen)}范围内`,
          );
          amountFail[pair] = reason;
        }
        found[count++] = reason;
      }
      const jobs = jobBits[i]!;
      if (jobs !== 0 && !(jobs & jobBit)) found[count++] = JOB_NOT_ACCEPTED;
      const missing = required[i]! & ~hasBits;
      if (missing !== 0) {
        for (let r = 0; r < REQUIREMENTS.length; r++)
          if (missing & (1 << r)) found[count++] = REQUIREMENTS[r]!.fail;
      }
      const sesame = sesameMinIndex[i]!;
      if (sesame >= 0 && !(sesameIndex >= sesame))
        found[count++] = sesameTooLow(a, SESAME_ORDER[sesame]!, sesame);
      const credit = creditBits[i]!;
      if (credit !== 0 && !(credit & creditBit)) found[count++] = CREDIT_RECORD_NOT_ACCEPTED;
      reasons = listOf(found, count);
    }
    reasonsAt[i] = reasons;
    if (reasons === undefined) {
      const p = partnerOf[i]!;
      const held = bestAt[p]!;
      if (held < 0 || compareProducts(products[i]!, products[held]!) < 0) bestAt[p] = i;
    }
  }

  const bests: Product[] = [];
  for (let p = 0; p < bestAt.length; p++) if (bestAt[p]! >= 0) bests.push(products[bestAt[p]!]!);
  return bests;
}

/* —————————————————————— match —————————————————————— */

/**
 * Matches a profile against products. Pure: the same input gives the same output, whatever the order
 * of `products`. Every product ends in exactly one of `eligible` (ranked, at most one product per
 * lender, at most the remaining lender allowance) or `excluded` (with every reason, sorted by id).
 * Product ids must be unique.
 *
 * Products are immutable input: the same products passed again in the same order are matched from a
 * table built from them (see the note at the top of this file), so a product object must not be
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
  let ids: readonly string[];
  let order: ArrayLike<number> | null;
  /** The best candidate of each lender. */
  let bests: Product[];

  const table = tableFor(products);
  if (table !== undefined) {
    ids = table.ids;
    order = table.order;
    bests = checkTable(table, a, counters, lockedProducts, lockedPartners, lockout, minute, reasonsAt);
  } else {
    const own = new Array<string>(n);
    bests = checkEach(products, a, counters, lockedProducts, lockedPartners, lockout, minute, reasonsAt, own);
    ids = own;
    order = idOrder(own);
  }
  if (order === null) throw new Error(`duplicate product id ${firstDuplicate(products)}`);

  // Walking the candidates in ranking order, the best candidate of each lender is offered while the
  // allowance lasts; so the offers are the `allowance` best of the lenders' best candidates, in order.
  // Any other candidate is SAME_LENDER when its lender got an offer, else LENDER_LIMIT.
  const offers = best(bests, allowance);
  const eligible: RankedProduct[] = [];
  const offered = new Map<string, Product>();
  for (const product of offers) {
    offered.set(product.partnerId, product);
    const matched: Passed = [];
    checkRuleSet(a, product.rules, undefined, matched);
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
