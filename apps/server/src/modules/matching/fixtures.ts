import type { Profile } from './types.ts';

/** A typical applicant (Shenzhen employee) used by the engine's and the products' tests. */
export const SAMPLE_PROFILE: Profile = {
  applyLimitFen: 5_000_000,
  workCityCode: '440300',
  age: 30,
  job: 'employee',
  socialSecurity: 'over6Months',
  housingFund: 'under6Months',
  insurance: 'over1Year',
  houseProperty: 'owned',
  carProperty: 'mortgageable',
  sesameCredit: '650to700',
  creditInvestigation: 'good',
  phoneBrand: 'huawei',
};
