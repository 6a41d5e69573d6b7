import { z } from 'zod';
import { OUTCOME_STATUSES } from '../outcomes.ts';
import {
  LEAD_STATUS_LABELS,
  LEAD_STATUSES,
  type LeadStatusValue,
  NOTICE_KIND_LABELS,
  NOTICE_KINDS,
  NOTICE_STATUS_LABELS,
  NOTICE_STATUSES,
  type NoticeKind,
  type NoticeStatus,
  OFFER_STATUS_LABELS,
  OFFER_STATUSES,
  type OfferStatus,
  SESSION_REVOKE_REASON_LABELS,
  SESSION_REVOKE_REASONS,
  type SessionRevokeReason,
} from '../privacy-labels.ts';

/**
 * Personal-data rights (issue 6; docs/privacy.md): sessions, application record, "who has my data"
 * with withdrawal per lender, export, and the deletion notices passed on to lenders after a
 * cancellation (console list). Times are ISO-8601 UTC strings; rates in basis points.
 */

export {
  SESSION_REVOKE_REASONS,
  type SessionRevokeReason,
  SESSION_REVOKE_REASON_LABELS,
  OFFER_STATUSES,
  type OfferStatus,
  OFFER_STATUS_LABELS,
  LEAD_STATUSES,
  type LeadStatusValue,
  LEAD_STATUS_LABELS,
  NOTICE_KINDS,
  type NoticeKind,
  NOTICE_KIND_LABELS,
  NOTICE_STATUSES,
  type NoticeStatus,
  NOTICE_STATUS_LABELS,
};

const iso = z.string();

/** A whole number from a query string ("2" or 2); blank → default. */
const queryInt = (label: string, min: number, max: number, fallback: number) =>
  z.preprocess(
    (v) => (v === undefined || v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v),
    z.coerce
      .number({ error: `${label}必须是数字` })
      .int(`${label}必须是整数`)
      .min(min, `${label}不能小于${min}`)
      .max(max, `${label}不能大于${max}`)
      .optional()
      .transform((v) => v ?? fallback),
  );

// ---------------------------------------------------------------------------------------------
// Sessions (safe-center)

export const sessionItemSchema = z.object({
  id: z.number().int(),
  createdAt: iso,
  /** Masked, e.g. "113.88.*.*"; null when unknown. */
  ip: z.string().nullable(),
  /** Short Chinese summary of the user agent, e.g. "iPhone · Safari". */
  device: z.string(),
  /** The session of this request. */
  current: z.boolean(),
  /** Not revoked and not expired. */
  active: z.boolean(),
  revokedAt: iso.nullable(),
  revokeReason: z.enum(SESSION_REVOKE_REASONS).nullable(),
});
export type SessionItem = z.infer<typeof sessionItemSchema>;

/** GET /api/user/sessions — newest 20. */
export const sessionListData = z.object({ list: z.array(sessionItemSchema) });
export type SessionList = z.infer<typeof sessionListData>;

/** POST /api/user/sessions/logout-all — revokes every session, the current one included. */
export const logoutAllData = z.object({ revoked: z.number().int() });
export type LogoutAllResult = z.infer<typeof logoutAllData>;

// ---------------------------------------------------------------------------------------------
// Application record

/** GET /api/user/applications?page=1&pageSize=20 */
export const applicationListQuery = z.object({
  page: queryInt('页码 page', 1, 10_000, 1),
  pageSize: queryInt('每页条数 pageSize', 1, 50, 20),
});
export type ApplicationListQuery = z.infer<typeof applicationListQuery>;

export const applicationOfferSchema = z.object({
  offerId: z.number().int(),
  productId: z.number().int(),
  productName: z.string(),
  lenderName: z.string(),
  aprBps: z.number().int().nullable(),
  status: z.enum(OFFER_STATUSES),
  consent: z
    .object({
      id: z.number().int(),
      createdAt: iso,
      agreementVersion: z.string(),
      withdrawnAt: iso.nullable(),
    })
    .nullable(),
  delivery: z
    .object({
      status: z.enum(LEAD_STATUSES),
      deliveredAt: iso.nullable(),
    })
    .nullable(),
  /**
   * What the lender reported (issue 47.6; OUTCOME_LABELS: 申请中 / 已授信 / 已放款 / 未通过), only for a lender
   * the lead went to: `pending` until it reports; null when no data went to it.
   */
  outcome: z
    .object({
      status: z.enum(['pending', ...OUTCOME_STATUSES]),
      /** The latest approval's credit limit, in fen. */
      limitFen: z.number().int().nullable(),
      /** The latest funding's amount, in fen. */
      amountFen: z.number().int().nullable(),
      /** When the lender's latest report arrived; null: none yet. */
      reportedAt: iso.nullable(),
    })
    .nullable(),
});
export type ApplicationOffer = z.infer<typeof applicationOfferSchema>;

export const applicationRecordSchema = z.object({
  runId: z.number().int(),
  createdAt: iso,
  channelCode: z.string().nullable(),
  /** Spec §3 match type 1–6. */
  matchType: z.number().int(),
  offers: z.array(applicationOfferSchema),
});
export type ApplicationRecord = z.infer<typeof applicationRecordSchema>;

export const applicationListData = z.object({
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  list: z.array(applicationRecordSchema),
});
export type ApplicationList = z.infer<typeof applicationListData>;

// ---------------------------------------------------------------------------------------------
// Who has my data

export const dataSharingEntrySchema = z.object({
  partnerId: z.number().int(),
  lenderName: z.string(),
  licenceNumber: z.string(),
  /** Names of the products applied for at this lender. */
  products: z.array(z.string()),
  /** Consented field keys (union over the person's consents to this lender). */
  fields: z.array(z.string()),
  /** Chinese labels of `fields`, same order. */
  fieldLabels: z.array(z.string()),
  firstConsentAt: iso,
  /** Last time data actually left for this lender; null: nothing was sent. */
  lastSharedAt: iso.nullable(),
  leads: z.array(
    z.object({
      productName: z.string(),
      consentedAt: iso,
      status: z.enum(LEAD_STATUSES),
      deliveredAt: iso.nullable(),
    }),
  ),
  /** Every consent to this lender is withdrawn. */
  withdrawn: z.boolean(),
  withdrawnAt: iso.nullable(),
  /** The newest notice to this lender (withdrawal or deletion); null: none. */
  notice: z
    .object({
      kind: z.enum(NOTICE_KINDS),
      status: z.enum(NOTICE_STATUSES),
      dueAt: iso.nullable(),
      confirmedAt: iso.nullable(),
    })
    .nullable(),
});
export type DataSharingEntry = z.infer<typeof dataSharingEntrySchema>;

/** GET /api/user/data-sharing */
export const dataSharingListData = z.object({ list: z.array(dataSharingEntrySchema) });
export type DataSharingList = z.infer<typeof dataSharingListData>;

/** POST /api/user/data-sharing/withdraw → the updated entry. */
export const withdrawConsentBody = z.object({
  partnerId: z.coerce
    .number({ error: '请选择要撤回授权的机构' })
    .int('机构编号 partnerId 必须是整数')
    .min(1, '机构编号 partnerId 不正确')
    .max(2_147_483_647, '机构编号 partnerId 不正确'),
});
export type WithdrawConsentBody = z.infer<typeof withdrawConsentBody>;

// ---------------------------------------------------------------------------------------------
// Export

/**
 * GET /api/user/export answers a FILE, not the envelope: the person's data as pretty-printed JSON with
 * `content-disposition: attachment; filename="my-data-YYYYMMDD.json"` (Shanghai date). Errors (401,
 * 429 after EXPORTS_PER_DAY a day) are the usual `{code,msg,data}` envelope with a JSON content type.
 */
export const EXPORT_PATH = '/api/user/export';
export const EXPORTS_PER_DAY = 10;

// ---------------------------------------------------------------------------------------------
// Console: deletion (and withdrawal) notices

/** GET /api/admin/privacy/deletions?status=&overdue=&kind=&page=&pageSize= */
export const adminNoticeListQuery = z.object({
  status: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.enum(NOTICE_STATUSES, { error: `状态 status 必须是 ${NOTICE_STATUSES.join('、')} 之一` }).optional(),
  ),
  /** Defaults to 'deletion'. */
  kind: z.preprocess(
    (v) => (v === '' || v === undefined ? 'deletion' : v),
    z.enum(NOTICE_KINDS, { error: `类型 kind 必须是 ${NOTICE_KINDS.join('、')} 之一` }),
  ),
  /** "1"/"true": only overdue (past dueAt and not confirmed); "0"/"false": only not overdue. */
  overdue: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .enum(['0', '1', 'true', 'false'], { error: 'overdue 必须是 0/1 或 true/false' })
      .optional()
      .transform((v) => (v === undefined ? undefined : v === '1' || v === 'true')),
  ),
  page: queryInt('页码 page', 1, 10_000, 1),
  pageSize: queryInt('每页条数 pageSize', 1, 100, 20),
});
export type AdminNoticeListQuery = z.infer<typeof adminNoticeListQuery>;

export const adminNoticeItemSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  phoneMasked: z.string(),
  partnerName: z.string(),
  kind: z.enum(NOTICE_KINDS),
  status: z.enum(NOTICE_STATUSES),
  createdAt: iso,
  dueAt: iso.nullable(),
  /** Past dueAt and not confirmed. */
  overdue: z.boolean(),
  /** Working days (Asia/Shanghai, weekends skipped) until dueAt; negative when overdue; null without dueAt. */
  workingDaysLeft: z.number().int().nullable(),
  confirmedAt: iso.nullable(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
});
export type AdminNoticeItem = z.infer<typeof adminNoticeItemSchema>;

export const adminNoticeListData = z.object({
  total: z.number().int(),
  list: z.array(adminNoticeItemSchema),
});
export type AdminNoticeList = z.infer<typeof adminNoticeListData>;

/** POST /api/admin/privacy/notices/:id/retry */
export const noticeIdParams = z.object({
  id: z.coerce
    .number({ error: '通知编号必须是数字' })
    .int('通知编号必须是整数')
    .min(1, '通知编号不正确')
    .max(Number.MAX_SAFE_INTEGER, '通知编号不正确'),
});
export const noticeRetryData = adminNoticeItemSchema;

// ---------------------------------------------------------------------------------------------
// Partner messages (what the lender receives and may send back)

/** Body POSTed to the lender's apiEndpoint for a notice (signed like a lead). */
export const partnerNoticeBodySchema = z.object({
  type: z.enum(['consent.withdrawn', 'data.deletion_requested']),
  /** The notice's idempotency key. */
  noticeId: z.string(),
  /** Idempotency keys of the leads concerned (the lender knows them as leadId). */
  leadIds: z.array(z.string()),
  requestedAt: iso,
  dueAt: iso.nullable(),
});
export type PartnerNoticeBody = z.infer<typeof partnerNoticeBodySchema>;
