import type { Counters, History, MatchOptions, Product, Profile } from './types.ts';

/** The answers of the typical applicant below to the form's questions (job to credit record). */
export const SAMPLE_CONDITIONS = {
  job: 'employee',
  socialSecurity: 'over6Months',
  housingFund: 'under6Months',
  insurance: 'over1Year',
  houseProperty: 'owned',
  carProperty: 'mortgageable',
  sesameCredit: '650to700',
  creditInvestigation: 'good',
} as const satisfies Partial<Profile>;

/** A typical applicant (Shenzhen employee) used by the engine's and the products' tests. */
export const SAMPLE_PROFILE: Profile = {
  applyLimitFen: 5_000_000,
  workCityCode: '440300',
  age: 30,
  ...SAMPLE_CONDITIONS,
  phoneBrand: 'huawei',
};

/** The terms of a typical test product (an API lender's: link type 2, 1 000 to 200 000 yuan, 3 to 36 months). */
export const SAMPLE_TERMS = {
  companyType: 'KAInstitution',
  institutionType: 1,
  thirdpartyType: 1,
  linkType: 2,
  amountMinFen: 100_000,
  amountMaxFen: 20_000_000,
  termMinMonths: 3,
  termMaxMonths: 36,
} as const satisfies Partial<Product>;

/** One generated case of the engine's property and oracle tests. */
export interface MatchCase {
  profile: Profile;
  products: Product[];
  counters: Counters;
  history: History;
  options: MatchOptions;
}
