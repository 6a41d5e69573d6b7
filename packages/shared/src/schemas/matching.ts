import { z } from 'zod';
import { channelCodeSchema } from './common.ts';

/**
 * Match results, per-lender consent and agreement texts (issue 4; docs/matching-consent-delivery.md).
 * Money in fen, rates in basis points.
 */

/** Form fields a lender may receive, with the Chinese label shown on the consent page. */
export const SHAREABLE_FIELD_LABELS = {
  realName: '姓名',
  mobile: '手机号',
  identity: '身份证号',
  workCity: '工作城市',
  workCityCode: '工作城市',
  applyLimit: '借款金额',
  job: '职业身份',
  payoffForm: '工资发放形式',
  socialSecurity: '社保',
  housingFund: '公积金',
  insurance: '商业保险',
  houseProperty: '房产',
  carProperty: '车产',
  sesameCredit: '芝麻分',
  creditInvestigation: '信用记录',
} as const;
export type ShareableField = keyof typeof SHAREABLE_FIELD_LABELS;

/** Why the data is shared (shown on the consent page and written into the agreement). */
export const SHARING_PURPOSE = '用于该机构评估您的借款申请、核实身份并与您联系办理借款';

/** The per-lender information-sharing agreement consented to on the authorisation page. */
export const INFO_AGREEMENT = { id: 'information-agreement', title: '个人信息共享授权书' } as const;

const companyType = z.enum(['KAInstitution', 'RegionInstitution']);

/** One product offered to the person, with everything the consent page names (PIPL art. 23). */
export const productOfferSchema = z.object({
  id: z.string(),
  productName: z.string(),
  companyType,
  institutionType: z.number().int(),
  thirdpartyType: z.number().int(),
  /** Whole-process partner product (thirdpartyType 7). */
  yqlWholeProcessBumpVO: z.object({ partnerProductName: z.string() }).nullable(),
  partnerProductName: z.string().nullable(),
  /** Spec §3 link type 1–9. */
  linkType: z.number().int(),
  /** Only for products that open the lender's page (link types 1, 4) or already-registered people. */
  thirdpartyTargetUrl: z.string().nullable(),
  /** Annualised rate with all costs, basis points. */
  aprBps: z.number().int(),
  amountMinFen: z.number().int(),
  amountMaxFen: z.number().int(),
  termMinMonths: z.number().int(),
  termMaxMonths: z.number().int(),
  lender: z.object({
    legalName: z.string(),
    licenceNumber: z.string(),
    contactName: z.string(),
    /** Masked. */
    contactPhone: z.string(),
  }),
  /** Fields the lender receives if the person consents. */
  sharedFields: z.array(z.object({ key: z.string(), label: z.string() })),
  purpose: z.string(),
  agreement: z.object({ id: z.string(), version: z.string(), title: z.string() }),
  rank: z.number().int(),
});
export type ProductOffer = z.infer<typeof productOfferSchema>;

/**
 * The match result (spec §3: id, companyType, applyStatus, thirdpartyTargetUrl, productName; plus
 * mayAuthProductList). The top offer's fields are at the top level; `mayAuthProductList` holds the
 * other offers. Nothing matched: id and productName null, applyStatus null (or 0 when every product
 * the person qualified for is sold out). Already registered at a lender (applyStatus 2): no offer (id
 * and productName null), the lender's own page in `thirdpartyTargetUrl` and the lender in `lender`.
 */
export const matchResultSchema = productOfferSchema.partial().extend({
  matchId: z.number().int().nullable(),
  /**
   * The run's opaque, unguessable name for links (issue 16.8): pages pass it instead of the result
   * and load the match with GET /api/user/info/match/{matchKey}; only its person can read it.
   */
  matchKey: z.string().nullable(),
  id: z.string().nullable(),
  productName: z.string().nullable(),
  /** 0 sold out, 1 matched, 2 already registered at the lender (confirm → its page). */
  applyStatus: z.union([z.literal(0), z.literal(1), z.literal(2)]).nullable(),
  mayAuthProductList: z.array(productOfferSchema),
});
export type MatchResultData = z.infer<typeof matchResultSchema>;

/** A match key (`matchKey` of a match result): sealed, base64url parts joined by dots. */
export const matchKeySchema = z
  .string({ error: '匹配编号无效' })
  .min(20, '匹配编号无效')
  .max(200, '匹配编号无效')
  .regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)+$/, '匹配编号无效');

/** GET /api/user/info/match/{matchKey}. */
export const matchKeyParams = z.object({ matchKey: matchKeySchema });

/**
 * POST /api/user/info/direct/match. directMatchType: the re-match type of spec §3 (0 old user,
 * 1 big union, 2 city, 3 second match); the match-type codes 4–6 are accepted too (6 = second match).
 */
export const directMatchBody = z.object(
  {
    adChannelCode: channelCodeSchema.optional(),
    directMatchType: z.coerce
      .number({ error: '匹配类型必须是数字' })
      .int('匹配类型必须是整数')
      .min(0, '匹配类型应为0-6')
      .max(6, '匹配类型应为0-6')
      .default(0),
    phoneModel: z.string().trim().max(64, '手机型号最长64个字符').optional(),
  },
  { error: '请求数据必须是对象' },
);

/** PUT /api/user/info/auth: consent lender by lender; offers of the run not listed are declined. */
export const authBody = z.object(
  {
    productIds: z
      .array(
        z.coerce
          .string()
          .trim()
          .regex(/^\d{1,10}$/, '产品编号无效')
          .refine((v) => Number(v) <= 2_147_483_647, '产品编号无效'),
        { error: '请选择要授权的机构' },
      )
      .min(1, '请至少选择一家机构')
      .max(10, '一次最多授权10家机构'),
    adChannelCode: channelCodeSchema.optional(),
    /** The match whose offers are consented to; default the person's latest. */
    matchId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  },
  { error: '请求数据必须是对象' },
);
export type AuthBody = z.input<typeof authBody>;

export const authData = z.object({
  submitStatus: z.literal(10),
  consented: z.array(
    z.object({
      productId: z.string(),
      productName: z.string(),
      /** The lender's legal name and the APR (bps) of the product: shown on every result. */
      lenderName: z.string(),
      aprBps: z.number().int().nullable(),
      consentId: z.number().int(),
      /** 'api' delivered by the server; 'h5Redirect' open thirdpartyTargetUrl; others wait for the lender. */
      mode: z.string(),
      thirdpartyTargetUrl: z.string().nullable(),
    }),
  ),
  declined: z.array(z.string()),
});

/** GET /api/user/info/protocol2/getContent?consentId&productId: the stored text of a consent. */
export const consentedTextQuery = z.object({
  productId: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z
      .string()
      .regex(/^\d{1,10}$/, '产品编号无效')
      .refine((v) => Number(v) <= 2_147_483_647, '产品编号无效')
      .optional(),
  ),
  consentId: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.coerce.number().int().positive('授权编号无效').max(Number.MAX_SAFE_INTEGER, '授权编号无效').optional(),
  ),
});

/**
 * GET /api/user/info/protocol/{id}?productId&adChannelCode: the text names the operator of the channel the
 * page was reached through (ADR 057), as a consent given there records it.
 */
export const protocolQuery = consentedTextQuery.extend({ adChannelCode: channelCodeSchema.optional() });

export const protocolData = z.object({
  id: z.string(),
  title: z.string(),
  version: z.string(),
  content: z.string(),
  /** SHA-256 (hex) of `content`: what a consent records. */
  textHash: z.string(),
  /** When served for a consent: when it was given. */
  consentedAt: z.string().nullable(),
});
export type ProtocolData = z.infer<typeof protocolData>;

/** GET /api/user/info/protocol2/:id — the agreement's id (information-agreement, or a page code). */
export const protocolParams = z.object({ id: z.string().max(64) });
