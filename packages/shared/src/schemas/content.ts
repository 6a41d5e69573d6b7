/**
 * Content calls (issue 6): the 13 agreement pages of spec §2 served from the database, and the daily news
 * (/audit-new). The web imports only the types from here (no zod in the browser bundle).
 */
import { z } from 'zod';
import { AGREEMENT_PAGES } from '../channel.ts';
import { channelCodeSchema, documentedInteger } from './common.ts';

export type AgreementCode = (typeof AGREEMENT_PAGES)[number]['key'];
export const AGREEMENT_CODES = AGREEMENT_PAGES.map((p) => p.key) as [AgreementCode, ...AgreementCode[]];

export function isAgreementCode(value: string): value is AgreementCode {
  return (AGREEMENT_CODES as readonly string[]).includes(value);
}

/** GET /api/agreement/:code — any text here; an unknown code answers the 404 envelope (not a 400). */
export const agreementParams = z.object({
  code: z.string().max(64, '协议编号过长'),
});

/**
 * The operator named in the agreements: the channel's operator record (ADR 057), or for no channel, an
 * unknown one or one without a record, the configured one (OPERATOR_*).
 */
export const operatorSchema = z.object({
  name: z.string(),
  shortName: z.string(),
  address: z.string(),
  licence: z.string(),
  servicePhone: z.string(),
  email: z.string(),
});
export type OperatorInfo = z.infer<typeof operatorSchema>;

export const agreementSectionSchema = z.object({
  heading: z.string(),
  paragraphs: z.array(z.string()),
});

/** GET /api/agreement/:code — the version in force, placeholders filled from configuration. */
export const agreementData = z.object({
  code: z.string(),
  version: z.string(),
  title: z.string(),
  /** As printed, e.g. "2026年11月22日". */
  effectiveDate: z.string(),
  /** ISO time the version took effect. */
  effectiveAt: z.string(),
  intro: z.string(),
  sections: z.array(agreementSectionSchema),
  operator: operatorSchema,
});
export type AgreementData = z.infer<typeof agreementData>;

/** GET /api/agreement/:code/versions — every stored version, newest first (audit). */
export const agreementVersionsData = z.object({
  code: z.string(),
  title: z.string(),
  /** The version served now (null when none has taken effect yet). */
  current: z.string().nullable(),
  list: z.array(
    z.object({
      version: z.string(),
      title: z.string(),
      effectiveDate: z.string(),
      effectiveAt: z.string(),
      createdAt: z.string(),
      /** in force: served now; scheduled: takes effect later; superseded: replaced by a newer one. */
      state: z.enum(['in_force', 'scheduled', 'superseded']),
    }),
  ),
});
export type AgreementVersionsData = z.infer<typeof agreementVersionsData>;

function queryInt(label: string, min: number, max: number, def: number) {
  return z
    .preprocess(
      (v) => (v === undefined || v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v),
      z
        .union(
          [
            z.number(),
            z
              .string()
              .trim()
              .regex(/^\d{1,6}$/, `${label}必须是整数`),
          ],
          {
            error: `${label}必须是整数`,
          },
        )
        .optional(),
    )
    .transform((v) => (v === undefined ? def : Number(v)))
    .refine((n) => Number.isInteger(n) && n >= min && n <= max, `${label}应在${min}到${max}之间`)
    .meta(documentedInteger(min, max));
}

export const NEWS_PAGE_SIZE_DEFAULT = 10;
export const NEWS_PAGE_SIZE_MAX = 50;

/** GET /api/news?page&pageSize */
export const newsListQuery = z.object({
  page: queryInt('页码 page', 1, 10_000, 1),
  pageSize: queryInt('每页条数 pageSize', 1, NEWS_PAGE_SIZE_MAX, NEWS_PAGE_SIZE_DEFAULT),
  /** Only this category (one of NEWS_CATEGORIES; empty = all). */
  category: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.string().trim().max(20, '分类名称过长').optional(),
  ),
});

/** The categories of the daily news, in the order the H5 shows them. */
export const NEWS_CATEGORIES = ['信用知识', '借款常识', '理性借贷', '防骗提醒', '个人信息保护'] as const;

export const newsItemSchema = z.object({
  id: z.number().int(),
  slug: z.string(),
  title: z.string(),
  summary: z.string(),
  category: z.string(),
  /** ISO time (UTC). */
  publishedAt: z.string(),
});
export type NewsItem = z.infer<typeof newsItemSchema>;

export const newsListData = z.object({
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  list: z.array(newsItemSchema),
});
export type NewsListData = z.infer<typeof newsListData>;

/** GET /api/news/:id — by numeric id or slug. */
export const newsParams = z.object({
  id: z.string().max(80, '资讯编号过长'),
});

export const newsDetailData = newsItemSchema.extend({
  /** Paragraphs of plain text. */
  body: z.array(z.string()),
  views: z.number().int(),
  /** Up to 3 other published articles, same category first. */
  related: z.array(newsItemSchema),
});
export type NewsDetailData = z.infer<typeof newsDetailData>;

/** GET /api/agreement/:code?version=: a version other than the one in force. */
/**
 * The channel the page was reached through (ADR 057): the agreement names that channel's operator. Without it,
 * or for a channel unknown or without an operator record, the configured operator (OPERATOR_*).
 */
export const operatorChannelQuery = z.object({ adChannelCode: channelCodeSchema.optional() });
export type OperatorChannelQuery = z.infer<typeof operatorChannelQuery>;

/** GET /api/agreement/:code?version&adChannelCode */
export const agreementQuery = operatorChannelQuery.extend({
  version: z.string().max(40, '版本号过长').optional(),
});
