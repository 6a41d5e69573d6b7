/**
 * Types of the pure matching function (issue 4, "Matching").
 *
 * Money is in fen (1 yuan = 100 fen), rates in basis points (1 % = 100 bps), instants are `Date`s and
 * "today" / "day" mean the Asia/Shanghai calendar day (see @lm/shared/time).
 *
 * The form's option codes (apps/web/src/config/form-options.ts) are numeric; here they are named
 * literals so that rules read clearly. The mapping belongs to the wiring of POST /api/user/info/save.
 */

/** Occupation chosen on the application form (job). */
export type Job =
  | 'employee' // 上班族
  | 'selfEmployed' // 个体户
  | 'businessOwner' // 企业主
  | 'freelancer'; // 自由职业

/** Social security / housing fund contribution history. */
export type ContributionStatus =
  | 'none' // 无
  | 'under6Months' // 缴纳6个月以下
  | 'over6Months'; // 缴纳6个月以上

/** Commercial insurance policy history. */
export type InsuranceStatus =
  | 'none' // 无商业保险
  | 'under1Year' // 缴纳不足1年
  | 'over1Year'; // 缴纳1年以上

/** House or car ownership. */
export type AssetStatus =
  | 'none' // 无
  | 'mortgageable' // 有，可抵押
  | 'owned'; // 有，不抵押

/** Sesame (Zhima) credit score band, lowest first. */
export type SesameBand =
  | 'none' // 无芝麻分
  | 'below600' // 600分以下
  | '600to650' // 600-650分
  | '650to700' // 650-700分
  | '700plus'; // 700分以上

/** Order of the Sesame bands; `none` is below every band. */
export const SESAME_ORDER: readonly SesameBand[] = ['none', 'below600', '600to650', '650to700', '700plus'];

/** Credit record (creditInvestigation). */
export type CreditRecord =
  | 'none' // 无信用记录
  | 'good' // 信用良好，无逾期
  | 'fewOverdues' // 1年内逾期少于3次
  | 'manyOverdues'; // 1年内逾期3次以上

/** Phone brand, spec §3 codes 01–09. */
export type PhoneBrand =
  | 'iphone' // 01
  | 'huawei' // 02
  | 'honor' // 03 RongYao
  | 'oppo' // 04
  | 'vivo' // 05
  | 'xiaomi' // 06
  | 'samsung' // 07
  | 'oneplus' // 08 One
  | 'other'; // 09

/** The applicant as the matching sees them (the saved form draft of spec §3). */
export interface Profile {
  /** Amount wanted, fen. */
  applyLimitFen: number;
  /** Six-digit region code of the city of work. */
  workCityCode: string;
  /** National ID; when valid at `now`, the age is computed from it (ageFromIdCard) and `age` is ignored. */
  identity?: string | undefined;
  /** Age in whole years, used when no valid ID is given. Unknown age fails any age rule. */
  age?: number | undefined;
  job: Job;
  socialSecurity: ContributionStatus;
  housingFund: ContributionStatus;
  insurance: InsuranceStatus;
  houseProperty: AssetStatus;
  carProperty: AssetStatus;
  sesameCredit: SesameBand;
  creditInvestigation: CreditRecord;
  phoneBrand?: PhoneBrand | undefined;
}

export type CompanyType = 'KAInstitution' | 'RegionInstitution';
/** 1 key account, 2 platform, 3 country, 4 region. */
export type InstitutionType = 1 | 2 | 3 | 4;
/** 1 H5 redirect, 2 API, 3 CRM, 4 API form H5 redirect, 5 match callback, 6 SaaS API, 7 whole process, 8 joint login, 9 city. */
export type LinkType = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
export type ProductStatus = 'draft' | 'published' | 'paused';

/** Eligibility rules; an absent rule does not restrict. Every bound is inclusive. */
export interface ProductRules {
  /** Six-digit codes served. A code ending in `0000` stands for its whole province. */
  citiesIn?: string[] | undefined;
  /** Six-digit codes not served (same province convention); wins over citiesIn. */
  citiesOut?: string[] | undefined;
  ageMin?: number | undefined;
  ageMax?: number | undefined;
  /** Bounds on the amount the applicant wants, fen. */
  amountMinFen?: number | undefined;
  amountMaxFen?: number | undefined;
  jobs?: Job[] | undefined;
  /** Any contribution other than `none` satisfies a requirement. */
  requireSocialSecurity?: boolean | undefined;
  requireHousingFund?: boolean | undefined;
  requireInsurance?: boolean | undefined;
  requireHouse?: boolean | undefined;
  requireCar?: boolean | undefined;
  sesameMin?: SesameBand | undefined;
  /** Credit records accepted. */
  creditRecord?: CreditRecord[] | undefined;
}

export interface Product {
  id: string;
  productName: string;
  partnerId: string;
  /** Legal name of the lender; required to publish. */
  partnerLegalName: string;
  companyType: CompanyType;
  institutionType: InstitutionType;
  /** 7 = whole-process partner product. */
  thirdpartyType: number;
  linkType: LinkType;
  amountMinFen: number;
  amountMaxFen: number;
  termMinMonths: number;
  termMaxMonths: number;
  /** Annualised rate including all costs, bps; null when not computed yet. At most 2400 to publish. */
  aprBps: number | null;
  status: ProductStatus;
  /** Shanghai wall-clock window, `from` inclusive, `to` exclusive; from > to spans midnight; from = to is all day. */
  activeHours: { from: string; to: string } | null;
  /** Leads per Shanghai day; null = unlimited. */
  dailyCap: number | null;
  /** Leads ever; null = unlimited. */
  totalCap: number | null;
  /** Higher first. */
  priority: number;
  /** What the lender pays per lead, fen. */
  priceFen: number;
  rules: ProductRules;
}

/** Leads counted for one product: today (Shanghai day of `now`) and in total. */
export interface ProductCounter {
  today: number;
  total: number;
}

/** By product id; a missing product has counted nothing. */
export type Counters = Readonly<Record<string, ProductCounter | undefined>>;

/** What the person did before. */
export interface History {
  /** Products applied to (leads sent), with the lender and when. */
  applications: { productId: string; partnerId: string; at: Date }[];
  /** Lenders matched in the current period as counted by the caller (if it keeps such a count). */
  lendersMatchedInPeriod?: number | undefined;
}

export interface MatchOptions {
  now: Date;
  /** Lenders per person per period; default 3. */
  maxLendersPerPeriod?: number | undefined;
  /** Days after applying to a lender before its products are offered again; default 30. */
  reapplyLockoutDays?: number | undefined;
  /** Length of the lender-limit period in days; default 30. */
  periodDays?: number | undefined;
}

export const MATCH_DEFAULTS = { maxLendersPerPeriod: 3, reapplyLockoutDays: 30, periodDays: 30 } as const;

export type ReasonCode =
  // gates
  | 'NOT_PUBLISHED'
  | 'NOT_PUBLISHABLE'
  | 'OUTSIDE_ACTIVE_HOURS'
  | 'DAILY_CAP_REACHED'
  | 'TOTAL_CAP_REACHED'
  | 'REAPPLY_LOCKOUT'
  // rules
  | 'CITY_NOT_COVERED'
  | 'CITY_EXCLUDED'
  | 'AGE_OUT_OF_RANGE'
  | 'AMOUNT_OUT_OF_RANGE'
  | 'JOB_NOT_ACCEPTED'
  | 'SOCIAL_SECURITY_REQUIRED'
  | 'HOUSING_FUND_REQUIRED'
  | 'INSURANCE_REQUIRED'
  | 'HOUSE_REQUIRED'
  | 'CAR_REQUIRED'
  | 'SESAME_TOO_LOW'
  | 'CREDIT_RECORD_NOT_ACCEPTED'
  // selection
  | 'SAME_LENDER'
  | 'LENDER_LIMIT'
  // set by the match service (not the pure engine): the lender's duplicate pre-check has the person
  | 'ALREADY_REGISTERED';

/** Why a product was excluded: a machine code and the Chinese text shown in the console. */
export interface Reason {
  code: ReasonCode;
  text: string;
}

/** A rule kind a product declares. */
export type RuleKind =
  | 'city'
  | 'age'
  | 'amount'
  | 'job'
  | 'socialSecurity'
  | 'housingFund'
  | 'insurance'
  | 'house'
  | 'car'
  | 'sesame'
  | 'creditRecord';

export interface RankedProduct {
  /** 1 = best. */
  rank: number;
  productId: string;
  product: Product;
  /** The rules the product declares and the profile satisfies, with a Chinese explanation. */
  matched: { rule: RuleKind; text: string }[];
}

export interface MatchResult {
  eligible: RankedProduct[];
  /** Sorted by product id. */
  excluded: { productId: string; reasons: Reason[] }[];
}
