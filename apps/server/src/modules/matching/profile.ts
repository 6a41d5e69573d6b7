import type { ApplicationForm } from '@lm/shared/schemas/application';
import type {
  AssetStatus,
  ContributionStatus,
  CreditRecord,
  InsuranceStatus,
  Job,
  PhoneBrand,
  Profile,
  SesameBand,
} from './types.ts';

/**
 * From the H5 form's option codes (APPLICATION_OPTION_CODES in @lm/shared) to the engine's named
 * values. The amount codes are ranges; the engine compares the middle of the range with a product's
 * amount bounds (1: under 10 000 yuan → 5 000; 2: 10–50 k → 30 000; 3: 50–100 k → 80 000;
 * 4: 100–200 k → 150 000).
 */
export const APPLY_LIMIT_FEN: Record<number, number> = {
  1: 500_000,
  2: 3_000_000,
  3: 8_000_000,
  4: 15_000_000,
};
const JOBS: Record<number, Job> = { 1: 'employee', 2: 'selfEmployed', 3: 'businessOwner', 4: 'freelancer' };
const CONTRIBUTION: Record<number, ContributionStatus> = { 0: 'none', 1: 'under6Months', 2: 'over6Months' };
const INSURANCE: Record<number, InsuranceStatus> = { 0: 'none', 1: 'under1Year', 2: 'over1Year' };
const ASSET: Record<number, AssetStatus> = { 0: 'none', 1: 'mortgageable', 2: 'owned' };
const SESAME: Record<number, SesameBand> = {
  0: 'none',
  1: 'below600',
  2: '600to650',
  3: '650to700',
  4: '700plus',
};
const CREDIT: Record<number, CreditRecord> = { 0: 'none', 1: 'good', 2: 'fewOverdues', 3: 'manyOverdues' };

/** Spec §3 phone brand codes 01–09 by brand. */
export const PHONE_BRAND_CODES: Record<PhoneBrand, string> = {
  iphone: '01',
  huawei: '02',
  honor: '03',
  oppo: '04',
  vivo: '05',
  xiaomi: '06',
  samsung: '07',
  oneplus: '08',
  other: '09',
};

/**
 * Brand from a phone model string (the H5's phoneModel or a user agent), by spec §3's detection
 * classes (huawei includes honor, which has its own code 03).
 */
export function phoneBrandOf(model: string | undefined | null): PhoneBrand | undefined {
  if (!model) return undefined;
  const m = model.toLowerCase();
  if (/iphone|ios/.test(m)) return 'iphone';
  if (/honor|rongyao|荣耀/.test(m)) return 'honor';
  if (/huawei|华为|harmony/.test(m)) return 'huawei';
  if (/oppo|realme/.test(m)) return 'oppo';
  if (/vivo|iqoo/.test(m)) return 'vivo';
  if (/xiaomi|redmi|mi \d|小米/.test(m)) return 'xiaomi';
  if (/samsung|sm-|galaxy/.test(m)) return 'samsung';
  if (/oneplus|一加/.test(m)) return 'oneplus';
  return 'other';
}

function pick<T>(table: Record<number, T>, code: number, field: string): T {
  const value = table[code];
  if (value === undefined) throw new RangeError(`unknown ${field} code ${code}`);
  return value;
}

/** The form's option fields the engine reads (the rule tester sends these without a real person). */
export type ProfileOptions = Pick<
  ApplicationForm,
  | 'applyLimit'
  | 'workCityCode'
  | 'job'
  | 'socialSecurity'
  | 'housingFund'
  | 'insurance'
  | 'houseProperty'
  | 'carProperty'
  | 'sesameCredit'
  | 'creditInvestigation'
> & { identity?: string | undefined; isHuaWeiPhone?: boolean | undefined };

/** The engine's profile from a validated application form (or its option fields). */
export function profileFromForm(form: ProfileOptions, phoneModel?: string | null): Profile {
  const brand = phoneBrandOf(phoneModel) ?? (form.isHuaWeiPhone ? 'huawei' : undefined);
  return {
    applyLimitFen: pick(APPLY_LIMIT_FEN, form.applyLimit, 'applyLimit'),
    workCityCode: form.workCityCode,
    identity: form.identity,
    job: pick(JOBS, form.job, 'job'),
    socialSecurity: pick(CONTRIBUTION, form.socialSecurity, 'socialSecurity'),
    housingFund: pick(CONTRIBUTION, form.housingFund, 'housingFund'),
    insurance: pick(INSURANCE, form.insurance, 'insurance'),
    houseProperty: pick(ASSET, form.houseProperty, 'houseProperty'),
    carProperty: pick(ASSET, form.carProperty, 'carProperty'),
    sesameCredit: pick(SESAME, form.sesameCredit, 'sesameCredit'),
    creditInvestigation: pick(CREDIT, form.creditInvestigation, 'creditInvestigation'),
    ...(brand ? { phoneBrand: brand } : {}),
  };
}
