/**
 * Console calls of issue 7 part 3 (docs: "Leads", "Deliveries", "Audit log"): people and their
 * applications, consents and leads, searchable and paged with personal data masked; revealing a
 * field asks for a reason (audit-logged); delivery queues per partner with retry and discard of
 * dead letters. Times are ISO-8601 UTC strings; list filters `from`/`to` are Shanghai calendar days.
 */
import { z } from 'zod';
import { OUTCOME_STATUSES } from '../outcomes.ts';
import { PHONE_PATTERN } from '../validators/phone.ts';
import { pageData, pageQuery, revealBody } from './admin.ts';
import { dayFilterSchema } from './common.ts';
import { LEAD_STATUSES } from './privacy.ts';

const iso = z.string();
const day = dayFilterSchema;
const id = (label: string) =>
  z.coerce
    .number({ error: `${label}必须是数字` })
    .int()
    .positive(`${label}无效`)
    .max(2_147_483_647, `${label}无效`);

export { LEAD_STATUSES };
export type AdminLeadStatus = (typeof LEAD_STATUSES)[number];

export const LEAD_MODES = ['api', 'h5Redirect', 'callback', 'jointLogin', 'none'] as const;
export const USER_STATUSES = ['active', 'cancelled'] as const;
// ---------------------------------------------------------------------------------------------
// People

/** GET /api/admin/users — `phone` must be the full 11 digits (found by its blind index). */
export const adminUserListQuery = pageQuery.extend({
  sort: z.enum(['createdAt', 'lastLoginAt'], { error: '排序字段只能是 createdAt 或 lastLoginAt' }).optional(),
  phone: z.string().trim().regex(PHONE_PATTERN, '请输入完整的 11 位手机号').optional(),
  channelCode: z.string().trim().min(1).max(64).optional(),
  status: z.enum(USER_STATUSES, { error: '状态只能是 active 或 cancelled' }).optional(),
  userInfoStatus: z.coerce.number().int().min(0).max(2, '资料状态只能是 0、1、2').optional(),
  from: day.optional(),
  to: day.optional(),
});
export type AdminUserListQuery = z.infer<typeof adminUserListQuery>;

export const leadCountsSchema = z.record(z.string(), z.number().int());

export const adminUserItemSchema = z.object({
  id: z.number().int(),
  phoneMasked: z.string(),
  channelCode: z.string().nullable(),
  status: z.enum(USER_STATUSES),
  userInfoStatus: z.number().int(),
  formSubmitted: z.boolean(),
  consents: z.number().int(),
  /** Leads by status, e.g. {delivered: 2, dead: 1}; statuses without leads are absent. */
  leads: leadCountsSchema,
  createdAt: iso,
  lastLoginAt: iso.nullable(),
});
export type AdminUserItem = z.infer<typeof adminUserItemSchema>;
export const adminUserListData = pageData(adminUserItemSchema);
export type AdminUserList = z.infer<typeof adminUserListData>;

export const userIdParams = z.object({ id: id('用户编号') });

const maskedContactSchema = z.object({
  relationship: z.string(),
  nameMasked: z.string(),
  phoneMasked: z.string(),
});

export const adminLeadAttemptSchema = z.object({
  id: z.number().int(),
  attempt: z.number().int(),
  startedAt: iso,
  durationMs: z.number().int(),
  httpStatus: z.number().int().nullable(),
  outcome: z.enum(['delivered', 'duplicate', 'retry', 'dead']),
  /**
   * Why the attempt failed, in our own words (HTTP status, redirect refused, timeout, address refused):
   * never the partner's answer, which is not stored. Administrators only: null for other roles.
   */
  error: z.string().nullable(),
});
export type AdminLeadAttempt = z.infer<typeof adminLeadAttemptSchema>;

/** One lead in a list (masked). */
export const adminLeadItemSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  phoneMasked: z.string(),
  channelCode: z.string().nullable(),
  productId: z.number().int(),
  productName: z.string(),
  partnerId: z.number().int(),
  partnerName: z.string(),
  mode: z.enum(LEAD_MODES),
  status: z.enum(LEAD_STATUSES),
  attempts: z.number().int(),
  nextAttemptAt: iso,
  lastError: z.string().nullable(),
  partnerRef: z.string().nullable(),
  autoForm: z.boolean(),
  /** What the lender reported that moved the lead last (issue 47.6); null: nothing yet. */
  outcome: z.enum(OUTCOME_STATUSES).nullable(),
  createdAt: iso,
  deliveredAt: iso.nullable(),
  updatedAt: iso,
});
export type AdminLeadItem = z.infer<typeof adminLeadItemSchema>;
export const adminLeadListData = pageData(adminLeadItemSchema);
export type AdminLeadList = z.infer<typeof adminLeadListData>;

/** One report of the lead's lender (POST /api/partner/outcomes), as received. */
export const adminLeadOutcomeSchema = z.object({
  id: z.number().int(),
  transactionId: z.string(),
  status: z.enum(OUTCOME_STATUSES),
  limitFen: z.number().int().nullable(),
  rateBps: z.number().int().nullable(),
  amountFen: z.number().int().nullable(),
  termMonths: z.number().int().nullable(),
  reason: z.string().nullable(),
  /** It moved the lead's outcome (false: recorded only, a late or repeated report). */
  applied: z.boolean(),
  occurredAt: iso,
  receivedAt: iso,
});
export type AdminLeadOutcome = z.infer<typeof adminLeadOutcomeSchema>;

/** A lead with its consent evidence, every delivery attempt and every report of its lender. */
export const adminLeadDetailSchema = adminLeadItemSchema.extend({
  idempotencyKey: z.string(),
  consent: z.object({
    id: z.number().int(),
    agreementCode: z.string(),
    agreementVersion: z.string(),
    textHash: z.string(),
    fields: z.array(z.string()),
    createdAt: iso,
    withdrawnAt: iso.nullable(),
  }),
  callback: z.record(z.string(), z.unknown()).nullable(),
  /** Whether an operator may put it back in the queue (dead, consent in force, account active). */
  retryable: z.boolean(),
  attemptList: z.array(adminLeadAttemptSchema),
  /** The lender's reports, oldest first (issue 47.6). */
  outcomeList: z.array(adminLeadOutcomeSchema),
});
export type AdminLeadDetail = z.infer<typeof adminLeadDetailSchema>;

export const adminUserDetailSchema = z.object({
  user: z.object({
    id: z.number().int(),
    phoneMasked: z.string(),
    channelCode: z.string().nullable(),
    status: z.enum(USER_STATUSES),
    userInfoStatus: z.number().int(),
    coverStatus: z.number().int(),
    abTestType: z.number().int().nullable(),
    isFormReq: z.boolean(),
    createdAt: iso,
    lastLoginAt: iso.nullable(),
    cancelledAt: iso.nullable(),
    /** When the person's objection to conversion reporting was recorded (隐私政策 第六条); null: reported. */
    adReportingObjectedAt: iso.nullable(),
  }),
  /** The application-form draft: personal fields masked, the rest as answered. */
  draft: z
    .object({
      realNameMasked: z.string().nullable(),
      identityMasked: z.string().nullable(),
      answers: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
      updatedAt: iso,
    })
    .nullable(),
  /** Credit information: face status and the two contacts (masked). */
  credit: z
    .object({
      auditStatus: z.number().int(),
      contacts: z.array(maskedContactSchema),
      updatedAt: iso,
    })
    .nullable(),
  runs: z.array(
    z.object({
      id: z.number().int(),
      createdAt: iso,
      source: z.enum(['form', 'auto', 'direct']),
      matchType: z.number().int(),
      directMatchType: z.number().int().nullable(),
      channelCode: z.string().nullable(),
      applyStatus: z.number().int().nullable(),
      excludedCount: z.number().int(),
      /** Excluded products and why (reason texts). */
      excluded: z.array(
        z.object({ productId: z.string(), productName: z.string().nullable(), reasons: z.array(z.string()) }),
      ),
      offers: z.array(
        z.object({
          id: z.number().int(),
          productId: z.number().int(),
          productName: z.string(),
          partnerName: z.string(),
          rank: z.number().int(),
          status: z.enum(['offered', 'consented', 'declined', 'released']),
          createdAt: iso,
          decidedAt: iso.nullable(),
        }),
      ),
    }),
  ),
  consents: z.array(
    z.object({
      id: z.number().int(),
      offerId: z.number().int(),
      productName: z.string(),
      partnerName: z.string(),
      agreementCode: z.string(),
      agreementVersion: z.string(),
      textHash: z.string(),
      fields: z.array(z.string()),
      createdAt: iso,
      withdrawnAt: iso.nullable(),
    }),
  ),
  leads: z.array(
    adminLeadItemSchema.extend({
      consentId: z.number().int(),
      attemptList: z.array(adminLeadAttemptSchema),
    }),
  ),
  notices: z.array(
    z.object({
      id: z.number().int(),
      partnerName: z.string(),
      kind: z.enum(['withdrawal', 'deletion']),
      status: z.enum(['pending', 'sent', 'confirmed', 'dead']),
      attempts: z.number().int(),
      createdAt: iso,
      dueAt: iso.nullable(),
      sentAt: iso.nullable(),
      confirmedAt: iso.nullable(),
      lastError: z.string().nullable(),
    }),
  ),
  sessions: z.array(
    z.object({
      id: z.number().int(),
      createdAt: iso,
      expiresAt: iso,
      revokedAt: iso.nullable(),
      revokeReason: z.string().nullable(),
      /** Masked, e.g. "113.88.*.*". */
      ip: z.string().nullable(),
      userAgent: z.string().nullable(),
    }),
  ),
});
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;

export const REVEAL_FIELDS = ['mobile', 'realName', 'identity', 'contacts'] as const;
export type RevealField = (typeof REVEAL_FIELDS)[number];
/** POST /api/admin/users/:id/reveal — the reason is written to the audit log, the value never. */
export const adminRevealBody = revealBody.extend({
  field: z.enum(REVEAL_FIELDS, { error: '查看的字段只能是 mobile、realName、identity 或 contacts' }),
});
export type AdminRevealBody = z.infer<typeof adminRevealBody>;

export const adminRevealData = z.object({
  field: z.enum(REVEAL_FIELDS),
  /** mobile, realName, identity: the clear value; contacts: null. */
  value: z.string().nullable(),
  /** contacts only. */
  contacts: z.array(z.object({ relationship: z.string(), name: z.string(), phone: z.string() })).nullable(),
});
export type AdminRevealData = z.infer<typeof adminRevealData>;

/**
 * PUT /api/admin/users/:id/ad-reporting — the person's objection to conversion reporting (隐私政策 第六条),
 * received by phone or e-mail: `objected: true` stops it (and ends their attribution), `false` withdraws it.
 */
export const adminAdReportingBody = z.object({
  objected: z.boolean({ error: '请说明是否停止广告效果回传（objected 为 true 或 false）' }),
});
export type AdminAdReportingBody = z.infer<typeof adminAdReportingBody>;

export const adminAdReportingData = z.object({
  /** When the objection was recorded; null: reported as usual. */
  adReportingObjectedAt: iso.nullable(),
});
export type AdminAdReportingData = z.infer<typeof adminAdReportingData>;

// ---------------------------------------------------------------------------------------------
// Leads and deliveries

/** GET /api/admin/leads */
export const adminLeadListQuery = pageQuery.extend({
  sort: z
    .enum(['createdAt', 'attempts', 'nextAttemptAt'], {
      error: '排序字段只能是 createdAt、attempts 或 nextAttemptAt',
    })
    .optional(),
  partnerId: id('机构编号').optional(),
  productId: id('产品编号').optional(),
  userId: id('用户编号').optional(),
  status: z.enum(LEAD_STATUSES, { error: '线索状态无效' }).optional(),
  channelCode: z.string().trim().min(1).max(64).optional(),
  from: day.optional(),
  to: day.optional(),
});
export type AdminLeadListQuery = z.infer<typeof adminLeadListQuery>;

export const leadIdParams = z.object({ id: id('线索编号') });

/** POST /api/admin/leads/:id/discard — a dead letter is given up for good. */
export const discardLeadBody = z.object({
  reason: z.string().trim().min(4, '请填写放弃原因（至少 4 个字）').max(200, '原因最多 200 字'),
});

/** POST /api/admin/leads/retry-dead — every dead lead of one partner goes back to the queue. */
export const retryDeadBody = z.object({ partnerId: id('机构编号') });
export const retryDeadData = z.object({
  retried: z.number().int(),
  /** Dead leads that cannot be sent again (consent withdrawn, account cancelled). */
  skipped: z.number().int(),
  /** Dead leads still waiting after this call's limit (call again). */
  remaining: z.number().int(),
});
export type RetryDeadData = z.infer<typeof retryDeadData>;

export const deliverySummaryItemSchema = z.object({
  partnerId: z.number().int(),
  partnerName: z.string(),
  partnerStatus: z.enum(['active', 'suspended']),
  /** Every pending lead (due, leased or waiting for a backoff). */
  pending: z.number().int(),
  dueNow: z.number().int(),
  leased: z.number().int(),
  deliveredToday: z.number().int(),
  dead: z.number().int(),
  discarded: z.number().int(),
  awaitingCallback: z.number().int(),
  oldestPendingAt: iso.nullable(),
  oldestPendingAgeSeconds: z.number().int().nullable(),
  lastAttempt: z
    .object({
      at: iso,
      outcome: z.enum(['delivered', 'duplicate', 'retry', 'dead']),
      httpStatus: z.number().int().nullable(),
      error: z.string().nullable(),
    })
    .nullable(),
});
export type DeliverySummaryItem = z.infer<typeof deliverySummaryItemSchema>;
export const deliverySummaryData = z.object({
  generatedAt: iso,
  list: z.array(deliverySummaryItemSchema),
});
export type DeliverySummaryData = z.infer<typeof deliverySummaryData>;

// ---------------------------------------------------------------------------------------------
// Audit log

/** GET /api/admin/audit-log/facets — values the filters offer (who acted, which actions and entities). */
export const auditFacetsData = z.object({
  staff: z.array(z.object({ id: z.number().int(), name: z.string() })),
  actions: z.array(z.string()),
  entities: z.array(z.string()),
});
export type AuditFacets = z.infer<typeof auditFacetsData>;
