import { z } from 'zod';
import { AD_PLACEMENTS } from '../placements.ts';
import { channelCodeSchema, documentedInteger, INT4_MAX } from './common.ts';

/**
 * Spec §7 "Products": queries, bodies and answers of the product calls. Query values arrive as text,
 * bodies may carry numbers or numeric text; empty values (`?amount=`, `""`, null) count as absent.
 */

export { AD_PLACEMENT_LABELS, AD_PLACEMENTS, type AdPlacement } from '../placements.ts';

/** appH5: where the call comes from; 4 is the H5 (the default when absent). */
export const APP_H5 = 4;

/** Link types whose products open a partner H5 page (1 H5 redirect, 4 API form H5 redirect). */
export const H5_LINK_TYPES = [1, 4] as const;

export const COMPANY_TYPES = ['KAInstitution', 'RegionInstitution'] as const;
export type CompanyType = (typeof COMPANY_TYPES)[number];

const isMissing = (v: unknown) => v === undefined || v === null;
const emptyAsAbsent = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** Spec §5: empty values (empty or blank strings, null) are removed from request bodies. */
function dropEmpty(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === null || v === undefined || (typeof v === 'string' && v.trim() === '')) continue;
    out[k] = v;
  }
  return out;
}

/**
 * An integer named `label` (e.g. "产品编号 productId") between `min` and `max`, given as a number or
 * as digits ("12", " 12 "). Messages name the field.
 */
function integer(label: string, min: number, max: number) {
  const name = /[A-Za-z0-9]$/.test(label) ? `${label} ` : label;
  const format = `${name}必须是整数`;
  const range = `${name}应在${min}到${max}之间`;
  return z
    .union([z.number(), z.string()], {
      error: (iss) => (isMissing(iss.input) ? `请提供${label}` : format),
    })
    .transform((v, ctx) => {
      const text = typeof v === 'string' ? v.trim() : null;
      if (text !== null && !/^-?\d{1,12}$/.test(text)) {
        ctx.addIssue({ code: 'custom', message: format });
        return z.NEVER;
      }
      const n = text === null ? (v as number) : Number(text);
      if (!Number.isInteger(n)) {
        ctx.addIssue({ code: 'custom', message: format });
        return z.NEVER;
      }
      if (n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: range });
        return z.NEVER;
      }
      return n;
    })
    .meta(documentedInteger(min, max));
}

/** An optional field: absent, empty or blank → undefined. */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(emptyAsAbsent, schema.optional());

/** Product id (as listed: a string of digits; numbers accepted too). */
export const productIdSchema = integer('产品编号 productId', 1, INT4_MAX);
/** Spec §3 ad placement 0–7. */
export const entranceTypeSchema = integer('广告位 entranceType', 0, 7);
/** Where the call comes from (4 = H5). */
export const appH5Schema = integer('来源端 appH5', 0, 9);

const required = <T extends z.ZodType>(schema: T) => z.preprocess(emptyAsAbsent, schema);

/** Page number, from 1. */
export const pageNumSchema = integer('页码 pageNum', 1, 10_000);
/** Page size: at most 50 products a page. */
export const PAGE_SIZE_MAX = 50;
export const PAGE_SIZE_DEFAULT = 10;
export const pageSizeSchema = integer('每页条数 pageSize', 1, PAGE_SIZE_MAX);

/** GET /api/product/productList */
export const productListQuery = z.object({
  pageNum: optional(pageNumSchema).transform((v) => v ?? 1),
  pageSize: optional(pageSizeSchema).transform((v) => v ?? PAGE_SIZE_DEFAULT),
  /** Amount wanted, in yuan: products whose amount range contains it. */
  amount: optional(integer('借款金额 amount（元）', 1, 10_000_000)),
  /** Term wanted, in months: products whose term range contains it. */
  termMonths: optional(integer('借款期限 termMonths（月）', 1, 120)),
  companyType: optional(
    z.enum(COMPANY_TYPES, { error: `机构类型 companyType 必须是 ${COMPANY_TYPES.join('、')} 之一` }),
  ),
  institutionType: optional(integer('机构类别 institutionType', 1, 4)),
  linkType: optional(integer('对接方式 linkType', 1, 9)),
});
export type ProductListQuery = z.infer<typeof productListQuery>;

/** GET /api/product/topRecommend */
export const TOP_RECOMMEND_DEFAULT = 3;
export const topRecommendQuery = z.object({
  size: optional(integer('推荐条数 size', 1, 20)).transform((v) => v ?? TOP_RECOMMEND_DEFAULT),
});

/** GET /api/product/columnRecommendProductList */
export const COLUMN_SIZE_DEFAULT = 6;
export const columnRecommendQuery = z.object({
  size: optional(integer('每栏条数 size', 1, 20)).transform((v) => v ?? COLUMN_SIZE_DEFAULT),
});

/** GET /api/product/randomRecommend: optionally not the product just shown. */
export const randomRecommendQuery = z.object({
  excludeProductId: optional(integer('排除的产品编号 excludeProductId', 1, INT4_MAX)),
});

/** GET /api/product/detail */
export const productDetailQuery = z.object({ productId: required(productIdSchema) });

/** POST /api/product/apply */
export const productApplyBody = z.preprocess(
  dropEmpty,
  z.object(
    {
      productId: productIdSchema,
      entranceType: entranceTypeSchema.optional().transform((v) => v ?? AD_PLACEMENTS.UNKNOWN),
      appH5: appH5Schema.optional().transform((v) => v ?? APP_H5),
    },
    { error: '请求数据必须是对象' },
  ),
);
export type ProductApplyBody = z.infer<typeof productApplyBody>;

/** POST /api/product/apiH5JumpUrlSuccessFlag (same fields as apply). */
export const jumpSuccessBody = productApplyBody;

/** GET /api/reportProductExposure */
export const productExposureQuery = z.object({
  productId: required(productIdSchema),
  entranceType: optional(entranceTypeSchema).transform((v) => v ?? AD_PLACEMENTS.UNKNOWN),
  appH5: optional(appH5Schema).transform((v) => v ?? APP_H5),
});
export type ProductEventInput = z.infer<typeof productExposureQuery>;

/** GET /api/agent/get: the channel whose agent is asked for (else the person's channel). */
export const agentQuery = z.object({ adChannelCode: optional(channelCodeSchema) });

/** One product as listed. Ids are strings; amounts in fen (分); APR in basis points. */
export const productItemData = z.object({
  id: z.string(),
  productName: z.string(),
  companyType: z.enum(COMPANY_TYPES),
  /** 1 key account, 2 platform, 3 country, 4 region. */
  institutionType: z.number().int(),
  /** 7: whole-process partner product. */
  thirdpartyType: z.number().int(),
  /** { partnerProductName } when thirdpartyType is 7, else null. */
  yqlWholeProcessBumpVO: z.object({ partnerProductName: z.string() }).nullable(),
  /** Spec §3 link type 1–9. */
  linkType: z.number().int(),
  amountMinFen: z.number().int(),
  amountMaxFen: z.number().int(),
  termMinMonths: z.number().int(),
  termMaxMonths: z.number().int(),
  /** Annualised rate, all costs included, in basis points (1800 = 18 %). */
  aprBps: z.number().int().nullable(),
  /** The lender's legal name. */
  lenderLegalName: z.string(),
  /** Link types 1 and 4: the partner page (only when its host is allowed), else null. */
  thirdpartyTargetUrl: z.string().nullable(),
});
export type ProductItem = z.infer<typeof productItemData>;

/** GET /api/product/detail */
export const productDetailData = productItemData.extend({
  lenderLicenceNumber: z.string(),
  /** Form fields the lender receives (shown on the consent page). */
  sharedFields: z.array(z.string()),
  /** Shanghai HH:MM window in which the product takes applications; null = always. */
  activeHours: z.object({ from: z.string(), to: z.string() }).nullable(),
});
export type ProductDetail = z.infer<typeof productDetailData>;

export const productListData = z.array(productItemData);

/** GET /api/product/productList */
export const productPageData = z.object({
  list: z.array(productItemData),
  total: z.number().int(),
  pageNum: z.number().int(),
  pageSize: z.number().int(),
});
export type ProductPage = z.infer<typeof productPageData>;

/** GET /api/product/columnRecommendProductList: one column per company type. */
export const productColumnsData = z.array(
  z.object({
    columnCode: z.enum(COMPANY_TYPES),
    columnName: z.string(),
    list: z.array(productItemData),
  }),
);

/** GET /api/product/listTodayApplyProduct */
export const todayApplyProductData = z.array(
  productItemData.extend({
    /** First apply or consent of the Shanghai day (ISO time). */
    appliedAt: z.string(),
    /** 'apply': POST /api/product/apply; 'consent': consented to share data (PUT /api/user/info/auth). */
    sources: z.array(z.enum(['apply', 'consent'])),
  }),
);

/** POST /api/product/apply */
export const productApplyData = z.object({
  /** The partner page to open (in /inline-page); null: the product takes leads through the form. */
  thirdpartyTargetUrl: z.string().nullable(),
  linkType: z.number().int(),
});

/** apiH5JumpUrlSuccessFlag and reportProductExposure. */
export const productEventData = z.object({
  /** False when the same event was already recorded today (nothing new stored). */
  recorded: z.boolean(),
});

/** GET /api/agent/get: the customer-service contact of a channel. */
export const agentData = z.object({
  /** The channel answered for; '' for the default configuration. */
  adChannelCode: z.string(),
  agentName: z.string(),
  /** The licensed company operating the channel (its operator, ADR 057: its footer), or null. */
  operatorName: z.string().nullable(),
  operatorFilingNumber: z.string().nullable(),
  /** Shanghai HH:MM window of the customer service. */
  serviceHours: z.object({ from: z.string(), to: z.string() }),
  /** Whether the service is within its hours now. */
  online: z.boolean(),
});
export type AgentData = z.infer<typeof agentData>;
