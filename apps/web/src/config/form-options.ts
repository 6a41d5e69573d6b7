/**
 * Option tables of the H5 forms.
 *
 * The credit-information enumerations (education … loan purpose, contact relation) are spec §3's codes
 * with their Chinese labels. The application-form options (applyLimit, job …) are not enumerated by the
 * spec: these codes are the H5's proposal for the form draft of spec §3 and should move to
 * `@lm/shared` together with the server's validation of POST /api/user/info/save (issue 4).
 */
export interface Option<V extends string | number = number> {
  label: string;
  value: V;
}

const list = <V extends string | number>(entries: readonly (readonly [V, string])[]): Option<V>[] =>
  entries.map(([value, label]) => ({ value, label }));

/* —— application form draft (spec §3) —— */

/** Amount wanted. Value 4 is never picked by the automatic form (spec §5). */
export const APPLY_LIMIT_OPTIONS = list([
  [1, '1万以下'],
  [2, '1-5万'],
  [3, '5-10万'],
  [4, '10-20万'],
]);

export const JOB_OPTIONS = list([
  [1, '上班族'],
  [2, '个体户'],
  [3, '企业主'],
  [4, '自由职业'],
]);

/** How the salary is paid (payoffForm). */
export const PAYOFF_FORM_OPTIONS = list([
  [1, '银行代发'],
  [2, '转账发放'],
  [3, '现金发放'],
]);

export const SOCIAL_SECURITY_OPTIONS = list([
  [0, '无社保'],
  [1, '缴纳6个月以下'],
  [2, '缴纳6个月以上'],
]);

export const HOUSING_FUND_OPTIONS = list([
  [0, '无公积金'],
  [1, '缴纳6个月以下'],
  [2, '缴纳6个月以上'],
]);

export const INSURANCE_OPTIONS = list([
  [0, '无商业保险'],
  [1, '缴纳不足1年'],
  [2, '缴纳1年以上'],
]);

export const HOUSE_PROPERTY_OPTIONS = list([
  [0, '无房产'],
  [1, '有房可抵押'],
  [2, '有房不抵押'],
]);

export const CAR_PROPERTY_OPTIONS = list([
  [0, '无车产'],
  [1, '有车可抵押'],
  [2, '有车不抵押'],
]);

export const SESAME_CREDIT_OPTIONS = list([
  [0, '无芝麻分'],
  [1, '600分以下'],
  [2, '600-650分'],
  [3, '650-700分'],
  [4, '700分以上'],
]);

/** Credit record (creditInvestigation). */
export const CREDIT_INVESTIGATION_OPTIONS = list([
  [0, '无信用记录'],
  [1, '信用良好，无逾期'],
  [2, '1年内逾期少于3次'],
  [3, '1年内逾期3次以上'],
]);

/* —— credit information (spec §3 enumerations) —— */

export const EDUCATION_OPTIONS = list([
  [0, '博士后'],
  [1, '博士'],
  [2, '硕士'],
  [3, '本科'],
  [4, '高中'],
  [5, '中专及以下'],
]);

export const MARITAL_STATUS_OPTIONS = list([
  [0, '已婚'],
  [1, '未婚'],
  [2, '丧偶'],
  [3, '离异'],
  [4, '再婚'],
]);

export const ANNUAL_INCOME_OPTIONS = list([
  [0, '20万以上'],
  [1, '10-20万'],
  [2, '5-10万'],
  [3, '5万以下'],
]);

export const OCCUPATION_OPTIONS = list([
  [0, '一般行业'],
  [1, '工厂'],
  [2, '农牧渔业'],
  [3, '木材森林业'],
  [4, '矿业采石业'],
  [5, '交通运输业'],
  [6, '旅游业'],
  [7, '餐饮业'],
  [8, '制造业'],
  [9, '医院诊所'],
  [10, '娱乐业'],
  [11, '教育'],
]);

/** Contact relation codes are strings (spec §3). */
export const CONTACT_RELATION_OPTIONS = list<string>([
  ['0', '父母'],
  ['1', '兄弟姐妹'],
  ['2', '同事'],
  ['3', '朋友'],
  ['4', '其他'],
]);

export const LOAN_PURPOSE_OPTIONS = list([
  [0, '旅游'],
  [1, '数码电器'],
  [2, '教育培训'],
  [3, '装修'],
  [4, '医疗'],
  [5, '日常消费'],
]);

/** Provider company types (spec §3). */
export const COMPANY_TYPE_LABELS: Record<string, string> = {
  KAInstitution: '持牌金融机构',
  RegionInstitution: '地方持牌机构',
};

export function labelOf<V extends string | number>(
  options: readonly Option<V>[],
  value: V | undefined,
): string {
  return options.find((o) => o.value === value)?.label ?? '';
}
