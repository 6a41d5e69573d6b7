import { ageFromIdCard, checkIdCard } from '@lm/shared/validators/id-card';
import { canPublish, parseHhmm } from './publish.ts';
import {
  type Counters,
  type History,
  MATCH_DEFAULTS,
  type MatchOptions,
  type MatchResult,
  type Product,
  type ProductRules,
  type Profile,
  type RankedProduct,
  type Reason,
  type RuleKind,
  SESAME_ORDER,
  type SesameBand,
} from './types.ts';

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

/**
 * Whether `now` is inside the Shanghai window: `from` inclusive, `to` exclusive; a window with
 * from > to spans midnight; from = to is open all day; no window is open all day. A malformed
 * window is closed.
 */
export function isWithinActiveHours(activeHours: Product['activeHours'], now: Date): boolean {
  if (!activeHours) return true;
  const from = parseHhmm(activeHours.from);
  const to = parseHhmm(activeHours.to);
  if (from === null || to === null) return false;
  if (from === to) return true;
  const t = shanghaiMinuteOfDay(now);
  return from < to ? t >= from && t < to : t >= from || t < to;
}

/** Age from a valid ID at `now` (Shanghai calendar), else the stated age, else null (unknown). */
export function profileAge(profile: Profile, now: Date): number | null {
  if (profile.identity && checkIdCard(profile.identity, now) === null)
    return ageFromIdCard(profile.identity, now);
  return typeof profile.age === 'number' && Number.isFinite(profile.age) ? profile.age : null;
}

/** A listed code covers a city when equal, or when it is a province code (`xx0000`) of the same province. */
export function cityListed(cityCode: string, list: readonly string[]): boolean {
  for (const c of list) {
    if (c === cityCode) return true;
    if (c.endsWith('0000') && c.slice(0, 2) === cityCode.slice(0, 2)) return true;
  }
  return false;
}

const yuan = (fen: number) => `${(fen / 100).toLocaleString('en-US', { maximumFractionDigits: 2 })}元`;

const SESAME_LABEL: Record<SesameBand, string> = {
  none: '无芝麻分',
  below600: '600分以下',
  '600to650': '600-650分',
  '650to700': '650-700分',
  '700plus': '700分以上',
};

interface RuleOutcome {
  failed: Reason[];
  passed: { rule: RuleKind; text: string }[];
}

/** Checks every rule the product declares; each broken rule gives its own reason. */
export function checkRules(profile: Profile, age: number | null, rules: ProductRules): RuleOutcome {
  const failed: Reason[] = [];
  const passed: { rule: RuleKind; text: string }[] = [];

  if (rules.citiesIn || rules.citiesOut) {
    let ok = true;
    if (rules.citiesOut && cityListed(profile.workCityCode, rules.citiesOut)) {
      failed.push({ code: 'CITY_EXCLUDED', text: '所在城市不在该产品服务范围' });
      ok = false;
    }
    if (rules.citiesIn && !cityListed(profile.workCityCode, rules.citiesIn)) {
      failed.push({ code: 'CITY_NOT_COVERED', text: '所在城市未开通该产品' });
      ok = false;
    }
    if (ok) passed.push({ rule: 'city', text: '所在城市在服务范围内' });
  }

  if (rules.ageMin !== undefined || rules.ageMax !== undefined) {
    const lo = rules.ageMin ?? 0;
    const hi = rules.ageMax ?? Number.POSITIVE_INFINITY;
    const range = `${rules.ageMin ?? '不限'}-${rules.ageMax ?? '不限'}岁`;
    if (age === null) failed.push({ code: 'AGE_OUT_OF_RANGE', text: `无法确认年龄，该产品要求${range}` });
    else if (age < lo || age > hi)
      failed.push({ code: 'AGE_OUT_OF_RANGE', text: `年龄${age}岁，不在该产品要求的${range}内` });
    else passed.push({ rule: 'age', text: `年龄${age}岁，符合${range}` });
  }

  if (rules.amountMinFen !== undefined || rules.amountMaxFen !== undefined) {
    const lo = rules.amountMinFen ?? 0;
    const hi = rules.amountMaxFen ?? Number.POSITIVE_INFINITY;
    const range = `${rules.amountMinFen !== undefined ? yuan(rules.amountMinFen) : '不限'}-${
      rules.amountMaxFen !== undefined ? yuan(rules.amountMaxFen) : '不限'
    }`;
    if (profile.applyLimitFen < lo || profile.applyLimitFen > hi)
      failed.push({ code: 'AMOUNT_OUT_OF_RANGE', text: `申请金额不在该产品的${range}范围内` });
    else passed.push({ rule: 'amount', text: `申请金额在${range}范围内` });
  }

  if (rules.jobs) {
    if (rules.jobs.includes(profile.job)) passed.push({ rule: 'job', text: '职业符合要求' });
    else failed.push({ code: 'JOB_NOT_ACCEPTED', text: '职业不符合该产品要求' });
  }

  const required: [boolean | undefined, boolean, RuleKind, Reason['code'], string][] = [
    [
      rules.requireSocialSecurity,
      profile.socialSecurity !== 'none',
      'socialSecurity',
      'SOCIAL_SECURITY_REQUIRED',
      '社保',
    ],
    [
      rules.requireHousingFund,
      profile.housingFund !== 'none',
      'housingFund',
      'HOUSING_FUND_REQUIRED',
      '公积金',
    ],
    [rules.requireInsurance, profile.insurance !== 'none', 'insurance', 'INSURANCE_REQUIRED', '商业保险'],
    [rules.requireHouse, profile.houseProperty !== 'none', 'house', 'HOUSE_REQUIRED', '房产'],
    [rules.requireCar, profile.carProperty !== 'none', 'car', 'CAR_REQUIRED', '车产'],
  ];
  for (const [require, has, rule, code, label] of required) {
    if (!require) continue;
    if (has) passed.push({ rule, text: `有${label}` });
    else failed.push({ code, text: `该产品要求有${label}` });
  }

  if (rules.sesameMin !== undefined) {
    if (SESAME_ORDER.indexOf(profile.sesameCredit) >= SESAME_ORDER.indexOf(rules.sesameMin))
      passed.push({ rule: 'sesame', text: `芝麻分${SESAME_LABEL[profile.sesameCredit]}，达到要求` });
    else
      failed.push({
        code: 'SESAME_TOO_LOW',
        text: `芝麻分${SESAME_LABEL[profile.sesameCredit]}，该产品要求${SESAME_LABEL[rules.sesameMin]}及以上`,
      });
  }

  if (rules.creditRecord) {
    if (rules.creditRecord.includes(profile.creditInvestigation))
      passed.push({ rule: 'creditRecord', text: '信用记录符合要求' });
    else failed.push({ code: 'CREDIT_RECORD_NOT_ACCEPTED', text: '信用记录不符合该产品要求' });
  }

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
 * Matches a profile against products. Pure: the same input gives the same output, whatever the order
 * of `products`. Every product ends in exactly one of `eligible` (ranked, at most one product per
 * lender, at most the remaining lender allowance) or `excluded` (with every reason, sorted by id).
 * Product ids must be unique.
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
  const age = profileAge(profile, now);

  const lockedProducts = new Set<string>();
  const lockedPartners = new Set<string>();
  for (const a of history.applications) {
    if (shanghaiDaysBetween(a.at, now) < lockoutDays) {
      lockedProducts.add(a.productId);
      lockedPartners.add(a.partnerId);
    }
  }

  const seen = new Set<string>();
  const candidates: { product: Product; passed: RuleOutcome['passed'] }[] = [];
  const excluded: MatchResult['excluded'] = [];

  for (const product of products) {
    if (seen.has(product.id)) throw new Error(`duplicate product id ${product.id}`);
    seen.add(product.id);
    const reasons: Reason[] = [];

    if (product.status !== 'published') reasons.push({ code: 'NOT_PUBLISHED', text: '产品未上架' });
    const problems = canPublish(product);
    if (problems.length > 0)
      reasons.push({
        code: 'NOT_PUBLISHABLE',
        text: `产品不满足上架条件：${problems.map((p) => p.text).join('；')}`,
      });
    if (!isWithinActiveHours(product.activeHours, now))
      reasons.push({
        code: 'OUTSIDE_ACTIVE_HOURS',
        text: `不在产品营业时段（${product.activeHours?.from}-${product.activeHours?.to}）`,
      });
    const counter = counters[product.id];
    if (product.dailyCap !== null && (counter?.today ?? 0) >= product.dailyCap)
      reasons.push({ code: 'DAILY_CAP_REACHED', text: '该产品今日名额已满' });
    if (product.totalCap !== null && (counter?.total ?? 0) >= product.totalCap)
      reasons.push({ code: 'TOTAL_CAP_REACHED', text: '该产品总名额已满' });
    if (lockedProducts.has(product.id) || lockedPartners.has(product.partnerId))
      reasons.push({ code: 'REAPPLY_LOCKOUT', text: `${lockoutDays}天内已申请过该机构的产品` });

    const { failed, passed } = checkRules(profile, age, product.rules);
    reasons.push(...failed);

    if (reasons.length > 0) excluded.push({ productId: product.id, reasons });
    else candidates.push({ product, passed });
  }

  candidates.sort((a, b) => compareProducts(a.product, b.product));

  const eligible: RankedProduct[] = [];
  const offeredPartners = new Set<string>();
  for (const { product, passed } of candidates) {
    if (offeredPartners.has(product.partnerId)) {
      excluded.push({
        productId: product.id,
        reasons: [{ code: 'SAME_LENDER', text: '同一机构只推荐排序最靠前的一款产品' }],
      });
    } else if (eligible.length >= allowance) {
      excluded.push({
        productId: product.id,
        reasons: [{ code: 'LENDER_LIMIT', text: '本期可匹配的机构数已达上限' }],
      });
    } else {
      offeredPartners.add(product.partnerId);
      eligible.push({ rank: eligible.length + 1, productId: product.id, product, matched: passed });
    }
  }

  excluded.sort((a, b) => (a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : 0));
  return { eligible, excluded };
}
