import { type Applicant, remember, remembered } from './applicant.ts';
import { canPublish } from './publish.ts';
import type { Product, Reason, ReasonCode, RuleKind, SesameBand } from './types.ts';

/**
 * Reasons a product is not offered, and explanations of the rules an offered product's applicant
 * satisfies: the texts of the first version, made once and shared (see `fixed`).
 */

/** `${(fen / 100).toLocaleString('en-US', { maximumFractionDigits: 2 })}元`, as the console shows amounts. */
function yuanSlow(fen: number): string {
  return `${(fen / 100).toLocaleString('en-US', { maximumFractionDigits: 2 })}元`;
}

/**
 * yuanSlow without Intl (a formatter per call, the largest cost of the first version) for whole fen
 * from 1 to 10^12: thousands separated by commas, up to two decimals without trailing zeros. Anything
 * else goes through yuanSlow.
 */
export function yuan(fen: number): string {
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

export function amountRange(amountMinFen: number | undefined, amountMaxFen: number | undefined): string {
  return `${amountMinFen !== undefined ? yuan(amountMinFen) : '不限'}-${
    amountMaxFen !== undefined ? yuan(amountMaxFen) : '不限'
  }`;
}

export const SESAME_LABEL: Record<SesameBand, string> = {
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
export function fixed(code: ReasonCode, text: string): Reason {
  return Object.freeze({ code, text });
}

export const NOT_PUBLISHED = fixed('NOT_PUBLISHED', '产品未上架');
export const DAILY_CAP_REACHED = fixed('DAILY_CAP_REACHED', '该产品今日名额已满');
export const TOTAL_CAP_REACHED = fixed('TOTAL_CAP_REACHED', '该产品总名额已满');
export const CITY_EXCLUDED = fixed('CITY_EXCLUDED', '所在城市不在该产品服务范围');
export const CITY_NOT_COVERED = fixed('CITY_NOT_COVERED', '所在城市未开通该产品');
export const JOB_NOT_ACCEPTED = fixed('JOB_NOT_ACCEPTED', '职业不符合该产品要求');
export const CREDIT_RECORD_NOT_ACCEPTED = fixed('CREDIT_RECORD_NOT_ACCEPTED', '信用记录不符合该产品要求');
export const SAME_LENDER = fixed('SAME_LENDER', '同一机构只推荐排序最靠前的一款产品');
export const LENDER_LIMIT = fixed('LENDER_LIMIT', '本期可匹配的机构数已达上限');

/** An explanation of a rule satisfied (RankedProduct.matched); shared and frozen as reasons are. */
export type Explanation = { rule: RuleKind; text: string };

export function explained(rule: RuleKind, text: string): Explanation {
  return Object.freeze({ rule, text });
}

export const CITY_SERVED = explained('city', '所在城市在服务范围内');
export const JOB_ACCEPTED = explained('job', '职业符合要求');
export const CREDIT_RECORD_ACCEPTED = explained('creditRecord', '信用记录符合要求');

export function notPublishable(product: Product): Reason {
  const problems = canPublish(product).map((p) => p.text);
  return fixed('NOT_PUBLISHABLE', `产品不满足上架条件：${problems.join('；')}`);
}

export function outsideHoursText(hours: Product['activeHours']): string {
  return `不在产品营业时段（${hours?.from}-${hours?.to}）`;
}

/**
 * The yes/no requirements (requireSocialSecurity, requireHousingFund, requireInsurance, requireHouse,
 * requireCar), in the order their reasons are given; Applicant.hasBits and RuleValues.required follow it.
 */
export const REQUIREMENTS: readonly { pass: Explanation; fail: Reason }[] = (
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

/** A new list of the first `count` reasons of `found`, undefined for none (array literals: exact size). */
export function listOf(found: readonly Reason[], count: number): Reason[] | undefined {
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

export function sesameTooLow(a: Applicant, min: SesameBand, minIndex: number): Reason {
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

export function ageOutOfRange(a: Applicant, ageMin: number | undefined, ageMax: number | undefined): Reason {
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

/** AMOUNT_OUT_OF_RANGE of a rule's bounds (as given). */
export function amountOutOfRange(amountMinFen: number | undefined, amountMaxFen: number | undefined): Reason {
  return fixed('AMOUNT_OUT_OF_RANGE', `申请金额不在该产品的${amountRange(amountMinFen, amountMaxFen)}范围内`);
}

/** AMOUNT_OUT_OF_RANGE for the applicant, remembered by bounds (positive ones: yuan(-0) is not yuan(0)). */
export function amountOutOfRangeFor(
  a: Applicant,
  amountMinFen: number | undefined,
  amountMaxFen: number | undefined,
): Reason {
  const cacheable =
    (amountMinFen === undefined || amountMinFen > 0) && (amountMaxFen === undefined || amountMaxFen > 0);
  let reason = cacheable ? remembered(a.amountFail, amountMinFen, amountMaxFen) : undefined;
  if (reason === undefined) {
    reason = amountOutOfRange(amountMinFen, amountMaxFen);
    if (cacheable) remember(a.amountFail, amountMinFen, amountMaxFen, reason);
  }
  return reason;
}

/** OUTSIDE_ACTIVE_HOURS for the applicant's call, remembered by the hours (from, to). */
export function outsideActiveHours(a: Applicant, hours: Product['activeHours']): Reason {
  const from = hours?.from;
  const to = hours?.to;
  return (
    remembered(a.hoursFail, from, to) ??
    remember(a.hoursFail, from, to, fixed('OUTSIDE_ACTIVE_HOURS', outsideHoursText(hours)))
  );
}

export type Passed = Explanation[];

export function ageFits(a: Applicant, ageMin: number | undefined, ageMax: number | undefined): Explanation {
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

export function amountFits(
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

export function sesameEnough(a: Applicant): Explanation {
  a.sesamePass ??= explained('sesame', `芝麻分${SESAME_LABEL[a.profile.sesameCredit]}，达到要求`);
  return a.sesamePass;
}
