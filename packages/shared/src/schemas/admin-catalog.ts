/**
 * Console: partners (lenders), products and the rule tester (issue 7). Money in fen, rates in basis
 * points (1 % = 100 bps), times ISO UTC, "today" the Asia/Shanghai calendar day.
 */
import { z } from 'zod';
import { isCityCode, REGIONS, regionText } from '../regions.ts';
import { HHMM_PATTERN } from '../time.ts';
import { CONTACT_PHONE_PATTERN } from '../validators/phone.ts';
import { pageData, pageQuery } from './admin.ts';
import {
  APPLICATION_FIELD_LABELS,
  APPLICATION_OPTION_CODES,
  type ApplicationOptionField,
} from './application.ts';
import { SHAREABLE_FIELD_LABELS } from './matching.ts';

/* —— option labels (the H5 form's, spec §3) —— */

export interface OptionLabel {
  value: number;
  label: string;
}

/** Chinese labels of the application form's option codes, as the H5 shows them. */
export const APPLICATION_OPTION_LABELS: Record<ApplicationOptionField, readonly OptionLabel[]> = {
  applyLimit: [
    { value: 1, label: '1万以下' },
    { value: 2, label: '1-5万' },
    { value: 3, label: '5-10万' },
    { value: 4, label: '10-20万' },
  ],
  job: [
    { value: 1, label: '上班族' },
    { value: 2, label: '个体户' },
    { value: 3, label: '企业主' },
    { value: 4, label: '自由职业' },
  ],
  payoffForm: [
    { value: 1, label: '银行代发' },
    { value: 2, label: '转账发放' },
    { value: 3, label: '现金发放' },
  ],
  socialSecurity: [
    { value: 0, label: '无社保' },
    { value: 1, label: '缴纳6个月以下' },
    { value: 2, label: '缴纳6个月以上' },
  ],
  housingFund: [
    { value: 0, label: '无公积金' },
    { value: 1, label: '缴纳6个月以下' },
    { value: 2, label: '缴纳6个月以上' },
  ],
  insurance: [
    { value: 0, label: '无商业保险' },
    { value: 1, label: '缴纳不足1年' },
    { value: 2, label: '缴纳1年以上' },
  ],
  houseProperty: [
    { value: 0, label: '无房产' },
    { value: 1, label: '有房可抵押' },
    { value: 2, label: '有房不抵押' },
  ],
  carProperty: [
    { value: 0, label: '无车产' },
    { value: 1, label: '有车可抵押' },
    { value: 2, label: '有车不抵押' },
  ],
  sesameCredit: [
    { value: 0, label: '无芝麻分' },
    { value: 1, label: '600分以下' },
    { value: 2, label: '600-650分' },
    { value: 3, label: '650-700分' },
    { value: 4, label: '700分以上' },
  ],
  creditInvestigation: [
    { value: 0, label: '无信用记录' },
    { value: 1, label: '信用良好，无逾期' },
    { value: 2, label: '1年内逾期少于3次' },
    { value: 3, label: '1年内逾期3次以上' },
  ],
};

/** The label of an application field (its key when unknown). */
export function applicationFieldLabel(field: string): string {
  return (APPLICATION_FIELD_LABELS as Record<string, string>)[field] ?? field;
}

/**
 * An application answer as the H5 form showed it: an option code as its label (applyLimit 2 →
 * "1-5万"), true/false as 是/否, the work city's code with its name ("广东省深圳市（440300）"), missing as "—";
 * an unknown code stays visible as "未知选项（9）".
 */
export function applicationAnswerText(
  field: string,
  value: string | number | boolean | null | undefined,
): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? '是' : '否';
  if (field === 'workCityCode') return `${regionText(String(value))}（${value}）`;
  const options = (APPLICATION_OPTION_LABELS as Partial<Record<string, readonly OptionLabel[]>>)[field];
  if (!options) return String(value);
  return options.find((o) => o.value === Number(value))?.label ?? `未知选项（${value}）`;
}

/* —— shared enumerations —— */

/** Spec §3 link types (the channel table's labels). */
export { LINK_TYPE_LABELS } from '../channel.ts';
export const INSTITUTION_TYPE_LABELS: Record<number, string> = {
  1: '头部机构',
  2: '平台',
  3: '全国',
  4: '地方',
};
export const COMPANY_TYPE_LABELS = { KAInstitution: '大机构', RegionInstitution: '地方机构' } as const;

export const DELIVERY_MODES = ['api', 'h5Redirect', 'callback', 'jointLogin', 'none'] as const;
export const DELIVERY_MODE_LABELS: Record<(typeof DELIVERY_MODES)[number], string> = {
  api: 'API推送',
  h5Redirect: 'H5跳转',
  callback: '等待回调',
  jointLogin: '联合登录',
  none: '不推送',
};

export const PARTNER_STATUS_LABELS = { active: '合作中', suspended: '已暂停' } as const;
export const PRODUCT_STATUS_LABELS = { draft: '草稿', published: '已上架', paused: '已下架' } as const;

export const JOBS = ['employee', 'selfEmployed', 'businessOwner', 'freelancer'] as const;
export const JOB_LABELS: Record<(typeof JOBS)[number], string> = {
  employee: '上班族',
  selfEmployed: '个体户',
  businessOwner: '企业主',
  freelancer: '自由职业',
};
export const SESAME_BANDS = ['none', 'below600', '600to650', '650to700', '700plus'] as const;
export const SESAME_LABELS: Record<(typeof SESAME_BANDS)[number], string> = {
  none: '无芝麻分',
  below600: '600分以下',
  '600to650': '600-650分',
  '650to700': '650-700分',
  '700plus': '700分以上',
};
export const CREDIT_RECORDS = ['none', 'good', 'fewOverdues', 'manyOverdues'] as const;
export const CREDIT_RECORD_LABELS: Record<(typeof CREDIT_RECORDS)[number], string> = {
  none: '无信用记录',
  good: '信用良好，无逾期',
  fewOverdues: '1年内逾期少于3次',
  manyOverdues: '1年内逾期3次以上',
};

/* —— helpers —— */

const id = z.coerce
  .number()
  .int('编号格式不正确')
  .positive('编号格式不正确')
  .max(2_147_483_647, '编号格式不正确');
export const idParam = z.object({ id });

/** A province code (`xx0000`) of the region table or one of its city codes. */
function isRegionCode(code: string): boolean {
  return isCityCode(code) || REGIONS.some((p) => p.value === code);
}
const regionCode = z
  .string()
  .regex(/^\d{6}$/, '城市编码应为6位数字')
  .refine(isRegionCode, '城市编码不在行政区划表中');

const nonNegInt = (label: string, max = 2_000_000_000) =>
  z
    .number({ error: `${label}必须是数字` })
    .int(`${label}必须是整数`)
    .min(0, `${label}不能为负数`)
    .max(max, `${label}过大`);

/** A hostname (no scheme, path or port). */
const hostname = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/,
    '域名格式不正确（只填域名，如 partner.example.com）',
  );

const url = (label: string) =>
  z.string().trim().max(2048, `${label}过长`).url(`${label}不是有效的网址`).nullable().optional();

/* —— partners —— */

/** Minutes between two rounds of the status poller for one lender (issue 47.4). */
export const POLL_INTERVAL_MINUTES = { min: 5, max: 1440, default: 60 } as const;

export const partnerStatusSchema = z.enum(['active', 'suspended'], { error: '状态只能是合作中或已暂停' });

export const partnerListQuery = pageQuery.extend({
  q: z.string().trim().max(60).optional(),
  status: partnerStatusSchema.optional(),
});
export type PartnerListQuery = z.infer<typeof partnerListQuery>;
export const PARTNER_SORTS = ['id', 'legalName', 'updatedAt', 'createdAt'] as const;

const deliveryModes = z
  .partialRecord(
    z.enum(['1', '2', '3', '4', '5', '6', '7', '8', '9'], { error: '链接类型只能是 1-9' }),
    z.enum(DELIVERY_MODES, { error: '推送方式无效' }),
  )
  .default({});

const partnerFields = {
  legalName: z.string().trim().min(2, '请填写机构法定名称').max(100, '机构名称最多100字'),
  licenceNumber: z.string().trim().min(2, '请填写许可证或备案号').max(100, '许可证号最多100字'),
  contactName: z.string().trim().min(1, '请填写联系人').max(40, '联系人最多40字'),
  contactPhone: z.string().trim().regex(CONTACT_PHONE_PATTERN, '联系电话格式不正确'),
  apiEndpoint: url('线索推送地址'),
  dupCheckEndpoint: url('查重地址'),
  allowedHosts: z.array(hostname).max(20, '允许域名最多20个').default([]),
  deliveryModes,
  status: partnerStatusSchema.default('active'),
  /** A lender without outcome callbacks: where the poller asks for its leads' statuses (issue 47.4). */
  statusQueryEndpoint: url('状态查询地址'),
  pollEnabled: z.boolean({ error: '是否开启状态轮询须为 true 或 false' }).default(false),
  pollIntervalMinutes: z
    .number({ error: '轮询间隔须为整数（分钟）' })
    .int('轮询间隔须为整数（分钟）')
    .min(POLL_INTERVAL_MINUTES.min, `轮询间隔至少 ${POLL_INTERVAL_MINUTES.min} 分钟`)
    .max(POLL_INTERVAL_MINUTES.max, `轮询间隔最多 ${POLL_INTERVAL_MINUTES.max} 分钟`)
    .default(POLL_INTERVAL_MINUTES.default),
  /** Days after delivery within which the lender may return a lead (issue 48.4); left out: unchanged (7 when new). */
  returnWindowDays: z
    .number({ error: '退回期限须为整数（天）' })
    .int('退回期限须为整数（天）')
    .min(1, '退回期限至少 1 天')
    .max(90, '退回期限最多 90 天')
    .optional(),
  /** The most it may return in a Shanghai month, in bps of its leads delivered that month; left out: unchanged. */
  maxReturnRateBps: z
    .number({ error: '每月最高退回率须为整数（基点，1 基点 = 0.01%）' })
    .int('每月最高退回率须为整数（基点，1 基点 = 0.01%）')
    .min(0, '每月最高退回率不能为负数')
    .max(10_000, '每月最高退回率最高 100%')
    .optional(),
};

export const partnerCreateBody = z.object({
  code: z
    .string()
    .trim()
    .regex(/^[a-z0-9-]{2,40}$/, '机构编码只能是2-40位小写字母、数字或连字符'),
  ...partnerFields,
});
export type PartnerCreateBody = z.infer<typeof partnerCreateBody>;

/** Edit: the contact phone may be left out (the stored one is kept; it is only ever shown masked). */
export const partnerUpdateBody = z.object({
  ...partnerFields,
  contactPhone: partnerFields.contactPhone.optional(),
});
export type PartnerUpdateBody = z.infer<typeof partnerUpdateBody>;

export const partnerSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  legalName: z.string(),
  licenceNumber: z.string(),
  contactName: z.string(),
  contactPhoneMasked: z.string(),
  apiEndpoint: z.string().nullable(),
  dupCheckEndpoint: z.string().nullable(),
  allowedHosts: z.array(z.string()),
  deliveryModes: z.record(z.string(), z.string()),
  status: partnerStatusSchema,
  statusQueryEndpoint: z.string().nullable(),
  pollEnabled: z.boolean(),
  pollIntervalMinutes: z.number().int(),
  /** The poller's last round for this lender (ISO) and why it failed (null: it succeeded, or none yet). */
  pollLastAt: z.string().nullable(),
  pollLastError: z.string().nullable(),
  /** Lead returns (issue 48.4): the window in days after delivery and the monthly rate limit in bps. */
  returnWindowDays: z.number().int(),
  maxReturnRateBps: z.number().int(),
  hasSecret: z.boolean(),
  secretRotatedAt: z.string().nullable(),
  /** Until when callbacks signed with the secret before the last rotation are still accepted. */
  previousSecretValidUntil: z.string().nullable(),
  productCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PartnerItem = z.infer<typeof partnerSchema>;
export const partnerListData = pageData(partnerSchema);
export type PartnerList = z.infer<typeof partnerListData>;

/** The new signing secret, shown once (never retrievable again). */
export const partnerSecretData = z.object({
  partner: partnerSchema,
  secret: z.string(),
  previousSecretValidUntil: z.string().nullable(),
});
export type PartnerSecretData = z.infer<typeof partnerSecretData>;

/* —— products —— */

export const productStatusSchema = z.enum(['draft', 'published', 'paused'], {
  error: '状态只能是草稿、已上架或已下架',
});
export type ProductStatusValue = z.infer<typeof productStatusSchema>;
const linkType = z.coerce
  .number({ error: '链接类型必须是数字' })
  .int('链接类型必须是 1-9')
  .min(1, '链接类型必须是 1-9')
  .max(9, '链接类型必须是 1-9');

export const PRODUCT_SORTS = ['id', 'priority', 'aprBps', 'priceFen', 'updatedAt'] as const;
export const productListQuery = pageQuery.extend({
  q: z.string().trim().max(60).optional(),
  partnerId: id.optional(),
  status: productStatusSchema.optional(),
  linkType: linkType.optional(),
});
export type ProductListQuery = z.infer<typeof productListQuery>;

/** The matching engine's ProductRules (apps/server/src/modules/matching/types.ts). */
export const productRulesSchema = z
  .strictObject(
    {
      citiesIn: z.array(regionCode).max(400, '城市最多400个').optional(),
      citiesOut: z.array(regionCode).max(400, '城市最多400个').optional(),
      ageMin: z.number().int('年龄必须是整数').min(16, '最低年龄不小于16').max(100).optional(),
      ageMax: z.number().int('年龄必须是整数').min(16).max(100, '最高年龄不大于100').optional(),
      amountMinFen: nonNegInt('申请金额下限').optional(),
      amountMaxFen: nonNegInt('申请金额上限').optional(),
      jobs: z.array(z.enum(JOBS, { error: '职业无效' })).optional(),
      requireSocialSecurity: z.boolean().optional(),
      requireHousingFund: z.boolean().optional(),
      requireInsurance: z.boolean().optional(),
      requireHouse: z.boolean().optional(),
      requireCar: z.boolean().optional(),
      sesameMin: z.enum(SESAME_BANDS, { error: '芝麻分要求无效' }).optional(),
      creditRecord: z.array(z.enum(CREDIT_RECORDS, { error: '信用记录无效' })).optional(),
    },
    { error: (iss) => (iss.code === 'unrecognized_keys' ? '规则中有不支持的字段' : undefined) },
  )
  .refine((r) => r.ageMin === undefined || r.ageMax === undefined || r.ageMin <= r.ageMax, {
    message: '最低年龄不能大于最高年龄',
    path: ['ageMax'],
  })
  .refine(
    (r) => r.amountMinFen === undefined || r.amountMaxFen === undefined || r.amountMinFen <= r.amountMaxFen,
    { message: '申请金额下限不能大于上限', path: ['amountMaxFen'] },
  );
export type ProductRulesInput = z.infer<typeof productRulesSchema>;

export const productBody = z
  .object({
    partnerId: id,
    productName: z.string().trim().min(2, '请填写产品名称').max(40, '产品名称最多40字'),
    companyType: z.enum(['KAInstitution', 'RegionInstitution'], { error: '机构类别无效' }),
    institutionType: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)], {
      error: '机构类型只能是 1-4',
    }),
    thirdpartyType: nonNegInt('第三方类型', 99).default(0),
    partnerProductName: z.string().trim().max(40).nullable().optional(),
    linkType,
    amountMinFen: nonNegInt('最低额度').min(1, '最低额度须大于0'),
    amountMaxFen: nonNegInt('最高额度'),
    termMinMonths: nonNegInt('最短期限', 360).min(1, '最短期限须大于0'),
    termMaxMonths: nonNegInt('最长期限', 360),
    /** Annualised rate, all costs included; null while not computed (cannot be published). */
    aprBps: nonNegInt('综合年化利率', 100_000).nullable().default(null),
    targetUrl: url('跳转链接'),
    rules: productRulesSchema.default({}),
    dailyCap: nonNegInt('每日上限').nullable().default(null),
    totalCap: nonNegInt('总上限').nullable().default(null),
    priority: z.number().int('优先级必须是整数').min(0).max(1000, '优先级 0-1000').default(0),
    priceFen: nonNegInt('单价', 100_000_000).default(0),
    activeHours: z
      .object({
        from: z.string().regex(HHMM_PATTERN, '营业时段格式应为HH:MM'),
        to: z.string().regex(HHMM_PATTERN, '营业时段格式应为HH:MM'),
      })
      .nullable()
      .default(null),
    sharedFields: z
      .array(
        z.enum(Object.keys(SHAREABLE_FIELD_LABELS) as [keyof typeof SHAREABLE_FIELD_LABELS], {
          error: '共享字段无效',
        }),
      )
      .default([]),
  })
  .refine((p) => p.amountMinFen <= p.amountMaxFen, {
    message: '最低额度不能高于最高额度',
    path: ['amountMaxFen'],
  })
  .refine((p) => p.termMinMonths <= p.termMaxMonths, {
    message: '最短期限不能长于最长期限',
    path: ['termMaxMonths'],
  });
export type ProductBody = z.infer<typeof productBody>;

export const productCreateBody = z.intersection(
  z.object({
    code: z
      .string()
      .trim()
      .regex(/^[a-z0-9-]{2,40}$/, '产品编码只能是2-40位小写字母、数字或连字符'),
  }),
  productBody,
);
export type ProductCreateBody = z.infer<typeof productCreateBody>;

export const productStatusBody = z.object({ status: productStatusSchema });

const publishProblem = z.object({ code: z.string(), text: z.string() });

export const productItemSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  partnerId: z.number().int(),
  partnerName: z.string(),
  partnerStatus: partnerStatusSchema,
  productName: z.string(),
  companyType: z.enum(['KAInstitution', 'RegionInstitution']),
  institutionType: z.number().int(),
  linkType: z.number().int(),
  amountMinFen: z.number().int(),
  amountMaxFen: z.number().int(),
  termMinMonths: z.number().int(),
  termMaxMonths: z.number().int(),
  aprBps: z.number().int().nullable(),
  priority: z.number().int(),
  priceFen: z.number().int(),
  status: productStatusSchema,
  dailyCap: z.number().int().nullable(),
  totalCap: z.number().int().nullable(),
  /** Leads counted today (Shanghai day) and ever: the live cap counters. */
  todayCount: z.number().int(),
  totalCount: z.number().int(),
  updatedAt: z.string(),
});
export type ProductItem = z.infer<typeof productItemSchema>;
export const productListData = pageData(productItemSchema);
export type ProductList = z.infer<typeof productListData>;

export const productDetailSchema = productItemSchema.extend({
  thirdpartyType: z.number().int(),
  partnerProductName: z.string().nullable(),
  targetUrl: z.string().nullable(),
  rules: z.record(z.string(), z.unknown()),
  activeHours: z.object({ from: z.string(), to: z.string() }).nullable(),
  sharedFields: z.array(z.string()),
  partnerAllowedHosts: z.array(z.string()),
  /** What prevents publishing right now (empty: may be published). */
  publishProblems: z.array(publishProblem),
  createdAt: z.string(),
});
export type ProductDetail = z.infer<typeof productDetailSchema>;

/* —— rule tester —— */

const option = (field: ApplicationOptionField) => {
  const label = APPLICATION_FIELD_LABELS[field];
  const codes: readonly number[] = APPLICATION_OPTION_CODES[field];
  return z
    .number({ error: `请选择${label}` })
    .int()
    .refine((v) => codes.includes(v), `${label}选项无效`);
};

/**
 * A sample applicant as the H5 form sends it (option codes). No real person: the ID number is optional;
 * without it the stated `age` is used.
 */
export const ruleTesterProfile = z.object({
  applyLimit: option('applyLimit'),
  job: option('job'),
  socialSecurity: option('socialSecurity'),
  housingFund: option('housingFund'),
  insurance: option('insurance'),
  houseProperty: option('houseProperty'),
  carProperty: option('carProperty'),
  sesameCredit: option('sesameCredit'),
  creditInvestigation: option('creditInvestigation'),
  workCityCode: z.string({ error: '请选择工作城市' }).regex(/^\d{6}$/, '工作城市编码应为6位数字'),
  identity: z.string().trim().toUpperCase().max(18).optional(),
  age: z.number().int('年龄必须是整数').min(16, '年龄不小于16').max(100, '年龄不大于100').optional(),
  isHuaWeiPhone: z.boolean().optional(),
});
export type RuleTesterProfile = z.infer<typeof ruleTesterProfile>;

export const ruleTesterBody = z.object({
  profile: ruleTesterProfile,
  channelCode: z.string().trim().max(64).optional(),
  /** The moment to test at (active hours, today's counters); default now. */
  at: z.iso.datetime({ offset: true, error: '时间格式应为 ISO 8601' }).optional(),
});
export type RuleTesterBody = z.infer<typeof ruleTesterBody>;

const testerReason = z.object({ code: z.string(), text: z.string() });
export const ruleTesterData = z.object({
  at: z.string(),
  /** Age used (from the ID number when valid, else the stated age), null when unknown. */
  age: z.number().int().nullable(),
  /** What the channel changes for this person (closed channel, city excluded by the channel). */
  notes: z.array(z.string()),
  matched: z.array(
    z.object({
      productId: z.string(),
      name: z.string(),
      lender: z.string(),
      rank: z.number().int(),
      reasons: z.array(z.object({ rule: z.string(), text: z.string() })),
    }),
  ),
  excluded: z.array(
    z.object({ productId: z.string(), name: z.string(), lender: z.string(), reasons: z.array(testerReason) }),
  ),
});
export type RuleTesterData = z.infer<typeof ruleTesterData>;
