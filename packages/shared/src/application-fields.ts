/**
 * The application-form draft of spec §3. The option codes are those of the H5 form
 * (apps/web/src/config/form-options.ts); the server accepts exactly these.
 * Zod-free: the H5 and the console import it; schemas/application.ts builds on it.
 */
export const APPLICATION_OPTION_CODES = {
  applyLimit: [1, 2, 3, 4],
  job: [1, 2, 3, 4],
  payoffForm: [1, 2, 3],
  socialSecurity: [0, 1, 2],
  housingFund: [0, 1, 2],
  insurance: [0, 1, 2],
  houseProperty: [0, 1, 2],
  carProperty: [0, 1, 2],
  sesameCredit: [0, 1, 2, 3, 4],
  creditInvestigation: [0, 1, 2, 3],
} as const satisfies Record<string, readonly number[]>;

export type ApplicationOptionField = keyof typeof APPLICATION_OPTION_CODES;

/** Chinese names of the draft's fields (validation messages name the field). */
export const APPLICATION_FIELD_LABELS = {
  adChannelCode: '渠道码',
  isHuaWeiPhone: '是否华为手机',
  applyLimit: '借款额度',
  job: '职业身份',
  payoffForm: '工资发放形式',
  socialSecurity: '社保',
  housingFund: '公积金',
  insurance: '商业保险',
  houseProperty: '房产',
  carProperty: '车产',
  sesameCredit: '芝麻分',
  creditInvestigation: '信用记录',
  realName: '真实姓名',
  identity: '身份证号',
  workCity: '工作城市',
  workCityCode: '工作城市编码',
} as const;

export { REAL_NAME_MSG, REAL_NAME_PATTERN } from './validators/real-name.ts';
export const CITY_CODE_MSG = '工作城市编码应为6位数字';
