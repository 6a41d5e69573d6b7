import { AD_REPORT_STATUSES, type ConversionEventMap } from '@lm/shared/conversions';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  doublePrecision,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { ProductRules } from '../modules/matching/types.ts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Ad-platform callback parameters captured from the landing URL and sent back as track_report. */
export interface TrackReportConfig {
  /** Ad platform, e.g. "oceanengine", "baidu", "kuaishou". */
  platform: string;
  /** Query keys of the landing URL to capture (e.g. clickid, callback, bd_vid). */
  params: string[];
}

/** A licensed-company record as a footer shows it (spec §1): company name and filing number. */
export interface LicensedCompany {
  companyName: string;
  filingNumber: string;
}

/**
 * Operators (ADR 057): the licensed company a person contracts with through a channel. The channel's footer,
 * its agreements, the privacy policy and the SMS signature of the codes sent for it all come from this one
 * record. A channel without one names the configured operator (OPERATOR_*).
 */
export const operators = pgTable('operators', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  code: text('code').notNull().unique(),
  /** The legal party: the company's full registered name (footer, agreements). */
  companyName: text('company_name').notNull(),
  /** What the agreements call it ("以下简称…"). */
  shortName: text('short_name').notNull(),
  /** ICP filing (or licence) number, shown beside the name in the footer and the agreements. */
  filingNumber: text('filing_number').notNull(),
  /** The SMS signature without its brackets: 2–12 characters, as registered with the gateway. */
  smsSignature: text('sms_signature').notNull(),
  address: text('address').notNull(),
  servicePhone: text('service_phone').notNull(),
  /** Contact for personal-information matters (privacy policy). */
  email: text('email').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** Advertising channels: skin, flow, link type and everything the H5 needs for a channel. */
export const channels = pgTable('channels', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  adChannelCode: text('ad_channel_code').notNull().unique(),
  name: text('name').notNull(),
  /** 1 open, 0 closed (the H5 reloads at the original address). */
  channelStatus: smallint('channel_status').notNull().default(1),
  /** Spec §3 link type 1–9. */
  linkType: smallint('link_type').notNull().default(1),
  /** Dash-separated feature flags: skin8…skin23, colour, flow and others. */
  flags: text('flags').notNull().default('skin17'),
  /** Six-digit city codes where the channel does not serve. */
  excludeCityCodes: jsonb('exclude_city_codes').$type<string[]>().notNull().default([]),
  planTargetUrl: text('plan_target_url'),
  pageTitle: text('page_title'),
  /** Page icon URL (or data: URI). */
  pageIcon: text('page_icon'),
  /** Whether the post-login flow asks for the visitor's location. */
  needsLocation: boolean('needs_location').notNull().default(false),
  trackReport: jsonb('track_report').$type<TrackReportConfig | null>(),
  /** Hosts that redirects (planTargetUrl, partner pages) may go to. */
  allowedHosts: jsonb('allowed_hosts').$type<string[]>().notNull().default([]),
  /** The operator its footer, agreements and SMS name (ADR 057); null: the configured one (OPERATOR_*). */
  operatorId: integer('operator_id').references(() => operators.id, { onDelete: 'restrict' }),
  /**
   * A/B split of skins (issue 7): each visitor (by fingerprint) sticks to one arm, chosen by weight;
   * null or empty = the skin of `flags` for everyone.
   */
  skinArms: jsonb('skin_arms').$type<{ skin: number; weight: number }[] | null>(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** Route codes in ad links, exchanged for a channel code (and a plan target URL). */
export const routeCodes = pgTable('route_codes', {
  routeCode: text('route_code').primaryKey(),
  adChannelCode: text('ad_channel_code')
    .notNull()
    .references(() => channels.adChannelCode, { onDelete: 'cascade', onUpdate: 'cascade' }),
  planTargetUrl: text('plan_target_url'),
  status: smallint('status').notNull().default(1),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/**
 * Ad links whose route code did not exchange (issue 44.19): unknown, deleted or disabled codes, counted
 * per code as the H5 asked (`GET /api/adChannel/exchange/adChannelCode`), so the console shows the dead
 * links still in ads. Nothing about the visitor is kept: the code, how often, first and last time.
 */
export const routeCodeMisses = pgTable('route_code_misses', {
  routeCode: text('route_code').primaryKey(),
  hits: integer('hits').notNull().default(0),
  firstSeenAt: ts('first_seen_at').notNull().defaultNow(),
  lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
});

/** Channel clicks, counted once per fingerprint per channel per Shanghai day. */
export const channelClicks = pgTable(
  'channel_clicks',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    adChannelCode: text('ad_channel_code').notNull(),
    /** Keyed hash of the device fingerprint; null when the click came without one (flagged). */
    fingerprintHash: text('fingerprint_hash'),
    day: date('day', { mode: 'string' }).notNull(),
    abTestType: smallint('ab_test_type'),
    flagged: boolean('flagged').notNull().default(false),
    ip: text('ip'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('channel_clicks_once_a_day')
      .on(t.adChannelCode, t.fingerprintHash, t.day)
      .where(sql`${t.fingerprintHash} is not null`),
    index('channel_clicks_day').on(t.day, t.adChannelCode),
  ],
);

/** Funnel steps reported by the H5 (spec §1), idempotent per session and step. */
export const events = pgTable(
  'events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** The H5's analytics session (one browser tab session). */
    sessionId: text('session_id').notNull(),
    step: text('step').notNull(),
    adChannelCode: text('ad_channel_code'),
    skin: smallint('skin'),
    fingerprintHash: text('fingerprint_hash'),
    behaviorCode: text('behavior_code'),
    source: text('source').notNull().default('H5'),
    userId: bigint('user_id', { mode: 'number' }),
    day: date('day', { mode: 'string' }).notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('events_once_per_session').on(t.sessionId, t.step),
    index('events_day').on(t.day, t.adChannelCode, t.step),
  ],
);

/**
 * Ad clicks (issue 47.1, ADR 069): a click of an ad platform as the landing URL named it (the `track_report`
 * header), first seen on a funnel event or a login, and the person it brought (the attribution rule of
 * @lm/shared/ad-clicks). Only the platform's click parameters: nothing personal.
 */
export const adClicks = pgTable(
  'ad_clicks',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    platform: text('platform').notNull(),
    clickId: text('click_id').notNull(),
    /** The channel whose landing it arrived on (the first seen). */
    channelCode: text('channel_code').notNull(),
    params: jsonb('params').$type<Record<string, string>>().notNull(),
    firstSeenAt: ts('first_seen_at').notNull().defaultNow(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
    /** The person credited with the click at their login; null until then. */
    userId: bigint('user_id', { mode: 'number' }),
    attributedAt: ts('attributed_at'),
  },
  (t) => [
    uniqueIndex('ad_clicks_platform_click').on(t.platform, t.clickId),
    index('ad_clicks_user').on(t.userId, t.attributedAt),
  ],
);

/**
 * A channel's reporting to its ad platform (issue 47.2): the platform, the attribution window (ADR 069), the
 * event of each of our steps, and the platform's credentials (encryptField of their JSON). One row per channel;
 * none: the platform's defaults, reporting off, the default window.
 */
export const channelConversions = pgTable('channel_conversions', {
  channelId: integer('channel_id')
    .primaryKey()
    .references(() => channels.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull().default(false),
  platform: text('platform').notNull(),
  windowDays: smallint('window_days').notNull().default(7),
  events: jsonb('events').$type<ConversionEventMap>().notNull(),
  /** encryptField(ring, JSON of the platform's credentials); null: none stored. */
  credentialsEnc: text('credentials_enc'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/**
 * Conversions reported to the ad platforms (issue 47.3): one row per person × step × platform (× occurrence
 * for a step reported every time), written when the step happens and sent by the delivery worker like leads
 * (lease, backoff, dead letters). Only the click it is reported against, the event and its value leave.
 */
export const adReports = pgTable(
  'ad_reports',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channelCode: text('channel_code').notNull(),
    platform: text('platform').notNull(),
    /** Our step: register, form, consent, credit, loan. */
    step: text('step').notNull(),
    eventCode: text('event_code').notNull(),
    clickId: bigint('click_id', { mode: 'number' })
      .notNull()
      .references(() => adClicks.id, { onDelete: 'cascade' }),
    valueFen: bigint('value_fen', { mode: 'number' }),
    happenedAt: ts('happened_at').notNull(),
    /** `platform:user:step:first` (first time only) or `…:<the step's own reference>`: a repeat is a no-op. */
    idempotencyKey: text('idempotency_key').notNull().unique(),
    /** pending → sent; dead after the attempt limit or a refusal no retry can change; late: past the platform's window, never sent. */
    status: text('status', { enum: AD_REPORT_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    lockedUntil: ts('locked_until'),
    lastError: text('last_error'),
    /** The platform's answer to the last attempt (at most 200 characters). */
    answer: text('answer'),
    sentAt: ts('sent_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('ad_reports_due').on(t.status, t.nextAttemptAt), index('ad_reports_user').on(t.userId)],
);

/** What the local ad-platform sandboxes received (dev only, issue 47.3): checked requests, newest last. */
export const adSandboxEvents = pgTable(
  'ad_sandbox_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    platform: text('platform').notNull(),
    /** The click the event names (Ocean Engine callback, Kuaishou callback, Baidu bd_vid, Tencent click_id). */
    clickId: text('click_id').notNull(),
    eventType: text('event_type').notNull(),
    /** The value as the platform received it, in fen. */
    valueFen: bigint('value_fen', { mode: 'number' }),
    /** The request as received (query and body). */
    request: jsonb('request').$type<Record<string, unknown>>().notNull(),
    receivedAt: ts('received_at').notNull().defaultNow(),
  },
  (t) => [index('ad_sandbox_events_click').on(t.platform, t.clickId)],
);

/** Devices reported with their province and city (excluded-city flow, spec §4). */
export const deviceReports = pgTable('device_reports', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  userId: bigint('user_id', { mode: 'number' }),
  adChannelCode: text('ad_channel_code'),
  provinceName: text('province_name').notNull(),
  cityName: text('city_name').notNull(),
  ip: text('ip'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/**
 * People who logged in. The phone is stored encrypted (mobile_enc), found by its blind index
 * (mobile_hash) and shown masked (mobile_masked). Cancellation clears all three.
 */
export const users = pgTable(
  'users',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    mobileEnc: text('mobile_enc'),
    mobileHash: text('mobile_hash'),
    mobileMasked: text('mobile_masked').notNull(),
    adChannelCode: text('ad_channel_code'),
    adChannelId: integer('ad_channel_id').references(() => channels.id, { onDelete: 'set null' }),
    abTestType: smallint('ab_test_type'),
    isFormReq: boolean('is_form_req').notNull().default(false),
    userInfoStatus: smallint('user_info_status').notNull().default(0),
    coverStatus: smallint('cover_status').notNull().default(0),
    status: text('status', { enum: ['active', 'cancelled'] })
      .notNull()
      .default('active'),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastLoginAt: ts('last_login_at'),
    cancelledAt: ts('cancelled_at'),
    /** The person objected to conversion reporting (隐私政策 第六条); null: reported as usual. */
    adReportingObjectedAt: ts('ad_reporting_objected_at'),
  },
  (t) => [uniqueIndex('users_mobile_hash_active').on(t.mobileHash).where(sql`${t.status} = 'active'`)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
    revokeReason: text('revoke_reason', { enum: ['logout', 'replaced', 'cancelled'] }),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  // At most one active session per person, enforced by the database too.
  (t) => [uniqueIndex('sessions_one_active_per_user').on(t.userId).where(sql`${t.revokedAt} is null`)],
);

/** One row per code sent. Only an HMAC of the code is kept. */
export const smsCodes = pgTable(
  'sms_codes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    phoneHash: text('phone_hash').notNull(),
    purpose: text('purpose', { enum: ['login', 'cancel', 'staff_login'] }).notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: smallint('attempts').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    ip: text('ip'),
    fingerprint: text('fingerprint'),
    /**
     * The known device (known_devices.id) the code was sent to, or null (ADR 055): only a login presenting that
     * device checks or burns it, and a send replaces only codes of the same holder.
     */
    holderDeviceId: bigint('holder_device_id', { mode: 'number' }),
  },
  (t) => [index('sms_codes_lookup').on(t.phoneHash, t.purpose, t.createdAt)],
);

/**
 * Devices that logged in (ADR 055): a random token returned with a successful login, kept here only as a hash,
 * bound to one subject (a person or a staff account) and its phone. A send-code request presenting it for that
 * phone is counted in the device's own budget, which strangers cannot spend.
 */
export const knownDevices = pgTable(
  'known_devices',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tokenHash: text('token_hash').notNull().unique(),
    subjectKind: text('subject_kind', { enum: ['user', 'staff'] }).notNull(),
    subjectId: integer('subject_id').notNull(),
    phoneHash: text('phone_hash').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastUsedAt: ts('last_used_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('known_devices_subject').on(t.subjectKind, t.subjectId)],
);

/** Dev-only outbox of the console SMS provider (never written in production). */
export const smsOutbox = pgTable(
  'sms_outbox',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    phoneHash: text('phone_hash').notNull(),
    phoneMasked: text('phone_masked').notNull(),
    message: text('message').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('sms_outbox_phone').on(t.phoneHash, t.createdAt)],
);

/** Rate-limit counters when Redis is not configured. A window starts at its first hit. */
export const rateCounters = pgTable(
  'rate_counters',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('rate_counters_expiry').on(t.expiresAt)],
);

export const staff = pgTable(
  'staff',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    mobileEnc: text('mobile_enc').notNull(),
    mobileHash: text('mobile_hash').notNull(),
    mobileMasked: text('mobile_masked').notNull(),
    passwordHash: text('password_hash'),
    /** channel_partner: read-only figures of `channelCodes` (issue 7). */
    role: text('role', { enum: ['admin', 'operator', 'viewer', 'channel_partner'] }).notNull(),
    status: text('status', { enum: ['active', 'disabled'] })
      .notNull()
      .default('active'),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastLoginAt: ts('last_login_at'),
    /** WeChat openid bound by PUT /api/crm/admin/org/employee/wechat/bindOpenid (encrypted + blind index). */
    wechatOpenidEnc: text('wechat_openid_enc'),
    wechatOpenidHash: text('wechat_openid_hash'),
    wechatBoundAt: ts('wechat_bound_at'),
    /** Channel-partner logins (issue 7): the channel codes whose figures this account may read. */
    channelCodes: jsonb('channel_codes').$type<string[]>().notNull().default([]),
  },
  (t) => [uniqueIndex('staff_mobile_hash').on(t.mobileHash)],
);

export const staffSessions = pgTable('staff_sessions', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  staffId: integer('staff_id')
    .notNull()
    .references(() => staff.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull().unique(),
  createdAt: ts('created_at').notNull().defaultNow(),
  expiresAt: ts('expires_at').notNull(),
  revokedAt: ts('revoked_at'),
  ip: text('ip'),
});

/** How a partner takes leads of a link type (spec §3 link types, as strings of the number). */
export type DeliveryMode = 'api' | 'h5Redirect' | 'callback' | 'jointLogin' | 'none';

/** Lenders (issue 4 "Partners and products"). Contact phone and signing secret are stored encrypted. */
export const partners = pgTable('partners', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  /** Stable slug (seed upserts by it). */
  code: text('code').notNull().unique(),
  legalName: text('legal_name').notNull(),
  /** Licence or filing number (金融许可证 / 备案号). */
  licenceNumber: text('licence_number').notNull(),
  contactName: text('contact_name').notNull(),
  /** encryptField(ring, phone). */
  contactPhoneEnc: text('contact_phone_enc').notNull(),
  contactPhoneMasked: text('contact_phone_masked').notNull(),
  apiEndpoint: text('api_endpoint'),
  /**
   * Duplicate pre-check endpoint (link types 2/6): receives only HMAC-SHA256(signing secret, phone)
   * and answers whether the lender already has the person. Null: the lender offers no pre-check.
   */
  dupCheckEndpoint: text('dup_check_endpoint'),
  /** encryptField(ring, secret): HMAC-SHA256 key of the lead delivery. */
  signingSecretEnc: text('signing_secret_enc'),
  /** The secret before the last rotation, still accepted on callbacks until `secretRotatedAt` + grace. */
  previousSigningSecretEnc: text('previous_signing_secret_enc'),
  secretRotatedAt: ts('secret_rotated_at'),
  /** Hosts the partner's pages may be opened on (/inline-page, redirects). */
  allowedHosts: jsonb('allowed_hosts').$type<string[]>().notNull().default([]),
  /** Delivery mode by link type ("1"…"9"). */
  deliveryModes: jsonb('delivery_modes').$type<Record<string, DeliveryMode>>().notNull().default({}),
  status: text('status', { enum: ['active', 'suspended'] })
    .notNull()
    .default('active'),
  /**
   * Status query endpoint of a lender that reports no outcomes itself (issue 47.4): the poller POSTs it signed
   * batches of lead ids and records its answers as outcomes (modules/outcomes/poller.ts). Checked like the other
   * endpoints (ADR 019). Null: the lender offers none.
   */
  statusQueryEndpoint: text('status_query_endpoint'),
  /** Whether the poller asks the status query endpoint. */
  pollEnabled: boolean('poll_enabled').notNull().default(false),
  /** Minutes between two rounds of asking this lender. */
  pollIntervalMinutes: integer('poll_interval_minutes').notNull().default(60),
  /** When this lender is next due; a round claims the lender by moving it on. Null: due now. */
  pollNextAt: ts('poll_next_at'),
  /** When the last round ran, and why it failed (our own short text; null: it succeeded). */
  pollLastAt: ts('poll_last_at'),
  pollLastError: text('poll_last_error'),
  /** Days after delivery within which the lender may return a lead (issue 48.4). */
  returnWindowDays: smallint('return_window_days').notNull().default(7),
  /** The most the lender may return in a Shanghai month, in bps of the leads delivered to it that month. */
  maxReturnRateBps: integer('max_return_rate_bps').notNull().default(2000),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** Loan products offered by partners; `rules` is the matching engine's ProductRules. */
export const products = pgTable(
  'products',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** Stable slug (seed upserts by it). */
    code: text('code').notNull().unique(),
    partnerId: integer('partner_id')
      .notNull()
      .references(() => partners.id, { onDelete: 'restrict' }),
    productName: text('product_name').notNull(),
    companyType: text('company_type', { enum: ['KAInstitution', 'RegionInstitution'] }).notNull(),
    /** 1 key account, 2 platform, 3 country, 4 region. */
    institutionType: smallint('institution_type').notNull(),
    /** 7 = whole-process partner product. */
    thirdpartyType: smallint('thirdparty_type').notNull().default(0),
    /** yqlWholeProcessBumpVO.partnerProductName (thirdpartyType 7). */
    partnerProductName: text('partner_product_name'),
    /** Spec §3 link type 1–9. */
    linkType: smallint('link_type').notNull(),
    amountMinFen: bigint('amount_min_fen', { mode: 'number' }).notNull(),
    amountMaxFen: bigint('amount_max_fen', { mode: 'number' }).notNull(),
    termMinMonths: smallint('term_min_months').notNull(),
    termMaxMonths: smallint('term_max_months').notNull(),
    /** Annualised rate, all costs included, bps; null until computed (cannot publish). */
    aprBps: integer('apr_bps'),
    targetUrl: text('target_url'),
    rules: jsonb('rules').$type<ProductRules>().notNull().default({}),
    /** Leads per Shanghai day; null = unlimited. */
    dailyCap: integer('daily_cap'),
    /** Leads ever; null = unlimited. */
    totalCap: integer('total_cap'),
    priority: integer('priority').notNull().default(0),
    priceFen: integer('price_fen').notNull().default(0),
    /** Shanghai HH:MM window; null = always. */
    activeHours: jsonb('active_hours').$type<{ from: string; to: string } | null>(),
    status: text('status', { enum: ['draft', 'published', 'paused'] })
      .notNull()
      .default('draft'),
    /** Form fields the lender receives (shown on the consent page). */
    sharedFields: jsonb('shared_fields').$type<string[]>().notNull().default([]),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('products_partner').on(t.partnerId),
    index('products_status').on(t.status),
    check('products_institution_type', sql`${t.institutionType} between 1 and 4`),
    check('products_link_type', sql`${t.linkType} between 1 and 9`),
  ],
);

/**
 * What a lender pays for a lead of a product, from a Shanghai day on (issue 48.1, ADR 073): CPL fen per
 * delivered lead, CPA fen per approved lead, CPS basis points of the funded amount. The price in force at an
 * event is the row of its model with the latest `effective_from` ≤ the event (modules/pricing/rules.ts).
 * Rows are only added, never changed: a price never rewrites the past. `products.price_fen` is a different
 * thing — the ranking input of the matching engine (docs/money.md).
 */
export const productPrices = pgTable(
  'product_prices',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    model: text('model', { enum: ['cpl', 'cpa', 'cps'] }).notNull(),
    /** Fen per lead (cpl, cpa); null for cps. */
    amountFen: bigint('amount_fen', { mode: 'number' }),
    /** Basis points of the funded amount (cps); null for cpl and cpa. */
    bps: integer('bps'),
    /** The start (00:00 Asia/Shanghai, stored as the UTC instant) of the day the price takes effect. */
    effectiveFrom: ts('effective_from').notNull(),
    createdBy: integer('created_by').references(() => staff.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('product_prices_product_model_from').on(t.productId, t.model, t.effectiveFrom),
    check(
      'product_prices_value',
      sql`(${t.model} = 'cps' and ${t.bps} between 1 and 10000 and ${t.amountFen} is null) or (${t.model} in ('cpl', 'cpa') and ${t.amountFen} between 0 and 100000000 and ${t.bps} is null)`,
    ),
  ],
);

/**
 * Leads per product per Shanghai day. A cap check is one statement:
 * `insert … on conflict (product_id, day) do update set count = count + 1 where count < cap returning`.
 */
export const productCounters = pgTable(
  'product_counters',
  {
    productId: integer('product_id').notNull(),
    /** Shanghai calendar day (YYYY-MM-DD). */
    day: date('day', { mode: 'string' }).notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.productId, t.day] }),
    foreignKey({ columns: [t.productId], foreignColumns: [products.id] }).onDelete('cascade'),
    index('product_counters_day').on(t.day),
  ],
);

/** Leads per product ever (total cap), incremented with the same guarded statement. */
export const productTotals = pgTable('product_totals', {
  productId: integer('product_id')
    .primaryKey()
    .references(() => products.id, { onDelete: 'cascade' }),
  count: integer('count').notNull().default(0),
});

/**
 * Application-form drafts (spec §3), one per person. The whole draft JSON is stored encrypted
 * (encryptField): it carries the real name and the national ID number.
 */
export const applicationDrafts = pgTable('application_drafts', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  userId: bigint('user_id', { mode: 'number' })
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** encryptField(ring, JSON of the draft). */
  dataEnc: text('data_enc').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** Shanghai calendar day (YYYY-MM-DD) column. */
const day = (name: string) => date(name, { mode: 'string' });

/**
 * One matching run for a person (POST /api/user/info/save, direct/match): the draft snapshot it used
 * (encrypted), the type of match and every excluded product with its reasons (kept for the console).
 */
export const matchRuns = pgTable(
  'match_runs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    adChannelCode: text('ad_channel_code'),
    /** Spec §3 match type 1–6 (1 default … 6 second match). */
    matchType: smallint('match_type').notNull(),
    /** Spec §3 re-match type 0–3 for direct matches; null for a form save. */
    directMatchType: smallint('direct_match_type'),
    /** 'form' (POST save), 'auto' (the automatic Haier form, confirmed by the person), 'direct'. */
    source: text('source', { enum: ['form', 'auto', 'direct'] }).notNull(),
    /** encryptField(ring, JSON of the draft matched). */
    profileEnc: text('profile_enc').notNull(),
    /** 0 sold out, 1 matched, 2 already registered at the top lender; null: nothing eligible. */
    applyStatus: smallint('apply_status'),
    /** [{productId, reasons:[{code,text}]}] */
    excluded: jsonb('excluded')
      .$type<{ productId: string; reasons: { code: string; text: string }[] }[]>()
      .notNull()
      .default([]),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('match_runs_user').on(t.userId, t.createdAt)],
);

/**
 * A product offered to a person by a run. An offer holds one slot of the product's daily and total
 * caps (reserved atomically when offered, given back when declined or superseded).
 */
export const matchOffers = pgTable(
  'match_offers',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    runId: bigint('run_id', { mode: 'number' })
      .notNull()
      .references(() => matchRuns.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'restrict' }),
    partnerId: integer('partner_id')
      .notNull()
      .references(() => partners.id, { onDelete: 'restrict' }),
    rank: smallint('rank').notNull(),
    /** Rules the profile satisfied: [{rule, text}]. */
    matched: jsonb('matched').$type<{ rule: string; text: string }[]>().notNull().default([]),
    /** Shanghai day whose cap slot the offer holds. */
    capDay: day('cap_day').notNull(),
    status: text('status', { enum: ['offered', 'consented', 'declined', 'released'] })
      .notNull()
      .default('offered'),
    createdAt: ts('created_at').notNull().defaultNow(),
    decidedAt: ts('decided_at'),
  },
  (t) => [index('match_offers_user_status').on(t.userId, t.status), index('match_offers_run').on(t.runId)],
);

/** The exact agreement texts people consented to, by SHA-256 of the text (immutable). */
export const agreementTexts = pgTable('agreement_texts', {
  hash: text('hash').primaryKey(),
  agreementCode: text('agreement_code').notNull(),
  version: text('version').notNull(),
  title: text('title').notNull(),
  content: text('content').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/** Consent to share data with one lender (PIPL art. 23), one per offer. */
export const consents = pgTable(
  'consents',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    offerId: bigint('offer_id', { mode: 'number' })
      .notNull()
      .unique()
      .references(() => matchOffers.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'restrict' }),
    partnerId: integer('partner_id')
      .notNull()
      .references(() => partners.id, { onDelete: 'restrict' }),
    agreementCode: text('agreement_code').notNull(),
    agreementVersion: text('agreement_version').notNull(),
    textHash: text('text_hash')
      .notNull()
      .references(() => agreementTexts.hash, { onDelete: 'restrict' }),
    /** Form fields shared with the lender. */
    fields: jsonb('fields').$type<string[]>().notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** The person withdrew this consent ("who has my data"): no further delivery; the lender is told. */
    withdrawnAt: ts('withdrawn_at'),
  },
  (t) => [index('consents_user').on(t.userId, t.createdAt)],
);

/**
 * `withdrawn`: the consent was withdrawn (or the account cancelled) before the lead was delivered.
 * `discarded`: an operator gave up on a dead letter (issue 7); it is never sent.
 */
export type LeadStatus =
  | 'pending'
  | 'delivered'
  | 'dead'
  | 'redirect'
  | 'awaiting_callback'
  | 'withdrawn'
  | 'discarded';

/**
 * The outbox: one lead per consent, written in the consent's transaction. The delivery worker sends
 * `pending` leads (api mode); redirect products answer their URL instead; callback / joint-login
 * leads wait for the partner's callback.
 */
export const leads = pgTable(
  'leads',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    consentId: bigint('consent_id', { mode: 'number' })
      .notNull()
      .unique()
      .references(() => consents.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'restrict' }),
    partnerId: integer('partner_id')
      .notNull()
      .references(() => partners.id, { onDelete: 'restrict' }),
    /** Sent as Idempotency-Key and as leadId: the partner de-duplicates on it. */
    /** What the lender reported last that moved it (issue 47.4, outcomeTransition); null: nothing yet. */
    outcome: text('outcome', { enum: ['received', 'duplicate', 'approved', 'declined', 'funded'] }),
    idempotencyKey: text('idempotency_key').notNull().unique(),
    mode: text('mode', { enum: ['api', 'h5Redirect', 'callback', 'jointLogin', 'none'] }).notNull(),
    /** encryptField(ring, JSON of the consented fields). */
    payloadEnc: text('payload_enc').notNull(),
    /** From the automatic (Haier) form: the person confirmed pre-selected answers. */
    autoForm: boolean('auto_form').notNull().default(false),
    status: text('status', {
      enum: ['pending', 'delivered', 'dead', 'redirect', 'awaiting_callback', 'withdrawn', 'discarded'],
    }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    /** A worker's claim; another worker may take the lead after it passes (crash recovery). */
    lockedUntil: ts('locked_until'),
    lastError: text('last_error'),
    /** The partner's reference from its answer or callback. */
    partnerRef: text('partner_ref'),
    /** The partner's callback (link types 5 and 8): status and details. */
    callback: jsonb('callback').$type<Record<string, unknown> | null>(),
    /** Id of the request that created the lead: sent as x-request-id with each delivery, logged with it. */
    requestId: text('request_id'),
    deliveredAt: ts('delivered_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('leads_due').on(t.status, t.nextAttemptAt), index('leads_user').on(t.userId)],
);

/** Every delivery attempt and the partner's answer. */
export const leadAttempts = pgTable(
  'lead_attempts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    leadId: bigint('lead_id', { mode: 'number' })
      .notNull()
      .references(() => leads.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    startedAt: ts('started_at').notNull(),
    durationMs: integer('duration_ms').notNull(),
    httpStatus: integer('http_status'),
    outcome: text('outcome', { enum: ['delivered', 'duplicate', 'retry', 'dead'] }).notNull(),
    /**
     * Why the attempt failed, our own short text (`HTTP 503`, a refused redirect, a timeout, a refused
     * address): the partner's answer is never stored (ADR 019, migration 0010).
     */
    error: text('error'),
  },
  (t) => [index('lead_attempts_lead').on(t.leadId)],
);

/**
 * Product exposures, applies and H5-jump confirmations (spec §7 "Products"): reportProductExposure,
 * product/apply, apiH5JumpUrlSuccessFlag.
 */
export const productEvents = pgTable(
  'product_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['exposure', 'apply', 'jump_success'] }).notNull(),
    /** Spec §3 ad placement 0–7. */
    entranceType: smallint('entrance_type'),
    appH5: smallint('app_h5'),
    /** Shanghai calendar day. */
    day: day('day').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('product_events_user_day').on(t.userId, t.day),
    index('product_events_product_day').on(t.productId, t.kind, t.day),
  ],
);

/**
 * Dev-only partner sandbox (/api/dev/partner-sandbox): what a lender's API received, de-duplicated on
 * the idempotency key as a real partner would. Never used in production.
 */
export const sandboxPartnerLeads = pgTable(
  'sandbox_partner_leads',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    partnerCode: text('partner_code').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    /** HMAC-SHA256(partner secret, phone): what a duplicate pre-check compares. */
    phoneHash: text('phone_hash').notNull(),
    body: jsonb('body').$type<Record<string, unknown>>().notNull(),
    receivedAt: ts('received_at').notNull().defaultNow(),
    /** What the sandbox lender answers its status query with for this lead (issue 47.4); null: no news. */
    outcome: jsonb('outcome').$type<Record<string, unknown>>(),
  },
  (t) => [
    uniqueIndex('sandbox_partner_leads_key').on(t.partnerCode, t.idempotencyKey),
    index('sandbox_partner_leads_phone').on(t.partnerCode, t.phoneHash),
  ],
);

/**
 * Files uploaded through a signed policy (GET /api/common/upload/policy) to the local store (or
 * recorded after an upload to the cloud store). Private files are served only to their owner or staff.
 */
export const uploadedFiles = pgTable(
  'uploaded_files',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** Object key (dir prefix + file name), unique per store. */
    key: text('key').notNull().unique(),
    /** Folder key of the policy (spec §7 `image`), e.g. "idcard", "face", "crm-idcard". */
    folder: text('folder').notNull(),
    isPrivate: boolean('is_private').notNull(),
    ownerUserId: bigint('owner_user_id', { mode: 'number' }).references(() => users.id, {
      onDelete: 'cascade',
    }),
    ownerStaffId: integer('owner_staff_id').references(() => staff.id, { onDelete: 'set null' }),
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('uploaded_files_owner').on(t.ownerUserId)],
);

/**
 * Credit information (spec §3 "Base/credit info"), one per person: the whole record (education …
 * contacts) stored encrypted; `auditStatus` is the face status (0 not started, 1 failed, 2 passed).
 */
export const creditProfiles = pgTable('credit_profiles', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  userId: bigint('user_id', { mode: 'number' })
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** encryptField(ring, JSON of the credit information). */
  dataEnc: text('data_enc').notNull(),
  /** Face status: 0 not started, 1 failed, 2 passed. */
  auditStatus: smallint('audit_status').notNull().default(0),
  /**
   * encryptField(ring, JSON {realName, identity}): the identity the first passed face verification was
   * made with (issue 16.1); every later form, match and consent must carry it. Null until then.
   */
  verifiedIdentityEnc: text('verified_identity_enc'),
  identityVerifiedAt: ts('identity_verified_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** Every face verification attempt and its decision (the selfie stays a private upload). */
export const faceChecks = pgTable(
  'face_checks',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fileKey: text('file_key').notNull(),
    /** 1 failed, 2 passed. */
    status: smallint('status').notNull(),
    provider: text('provider').notNull(),
    /** Whether the provider confirmed the face belongs to the ID holder; null when it cannot tell. */
    identityVerified: boolean('identity_verified'),
    /** Machine-readable reasons and measurements (faces found, size, sharpness …). */
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('face_checks_user').on(t.userId, t.createdAt)],
);

/**
 * Notices to a lender about data it already received (issue 6 "who has my data"): a consent withdrawal
 * or a deletion request after account cancellation. Sent by the delivery worker like leads (signed,
 * idempotent, retried with backoff, dead-lettered). A deletion is `confirmed` when the lender confirms
 * it deleted the data (in its answer or by callback) and is due within 15 working days (`dueAt`).
 */
export const partnerNotices = pgTable(
  'partner_notices',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    partnerId: integer('partner_id')
      .notNull()
      .references(() => partners.id, { onDelete: 'restrict' }),
    kind: text('kind', { enum: ['withdrawal', 'deletion'] }).notNull(),
    /** Idempotency keys of the leads the notice is about (the lender knows them as leadId). */
    leadKeys: jsonb('lead_keys').$type<string[]>().notNull(),
    idempotencyKey: text('idempotency_key').notNull().unique(),
    /** pending → sent (lender acknowledged) → confirmed (deletion done); dead after the attempt limit. */
    status: text('status', { enum: ['pending', 'sent', 'confirmed', 'dead'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    lockedUntil: ts('locked_until'),
    lastError: text('last_error'),
    /** Deletion deadline: 15 working days (Asia/Shanghai) after the request. */
    dueAt: ts('due_at'),
    /** The id of the person's request that made the notice (sent to the lender as `x-request-id`). */
    requestId: text('request_id'),
    sentAt: ts('sent_at'),
    confirmedAt: ts('confirmed_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('partner_notices_due').on(t.status, t.nextAttemptAt),
    index('partner_notices_user').on(t.userId),
    index('partner_notices_kind_status').on(t.kind, t.status, t.dueAt),
  ],
);

/**
 * Outcomes lenders reported about their leads (issue 47.4), each once per lender × transaction id: received,
 * duplicate, approved (limit, rate), declined (reason), funded (amount, term). `applied` false: recorded but
 * it did not move the lead (late or repeated, outcomeTransition).
 */
export const leadOutcomes = pgTable(
  'lead_outcomes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    leadId: bigint('lead_id', { mode: 'number' })
      .notNull()
      .references(() => leads.id, { onDelete: 'cascade' }),
    partnerId: integer('partner_id')
      .notNull()
      .references(() => partners.id, { onDelete: 'restrict' }),
    transactionId: text('transaction_id').notNull(),
    status: text('status', { enum: ['received', 'duplicate', 'approved', 'declined', 'funded'] }).notNull(),
    limitFen: bigint('limit_fen', { mode: 'number' }),
    rateBps: integer('rate_bps'),
    reason: text('reason'),
    amountFen: bigint('amount_fen', { mode: 'number' }),
    termMonths: integer('term_months'),
    applied: boolean('applied').notNull(),
    occurredAt: ts('occurred_at').notNull(),
    receivedAt: ts('received_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('lead_outcomes_partner_txn').on(t.partnerId, t.transactionId),
    index('lead_outcomes_lead').on(t.leadId),
  ],
);

/** Every attempt to send a partner notice and the lender's answer. */
export const partnerNoticeAttempts = pgTable(
  'partner_notice_attempts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    noticeId: bigint('notice_id', { mode: 'number' })
      .notNull()
      .references(() => partnerNotices.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    startedAt: ts('started_at').notNull(),
    durationMs: integer('duration_ms').notNull(),
    httpStatus: integer('http_status'),
    outcome: text('outcome', { enum: ['sent', 'confirmed', 'retry', 'dead'] }).notNull(),
    /** As lead_attempts.error: our reason, never the partner's answer. */
    error: text('error'),
  },
  (t) => [index('partner_notice_attempts_notice').on(t.noticeId)],
);

/** Agreement body: {{operatorName}}-style placeholders are filled from configuration when served. */
export interface AgreementBody {
  effectiveDate: string;
  intro: string;
  sections: { heading: string; paragraphs: string[] }[];
}

/** The agreement pages of spec §2, versioned: the newest version whose effectiveAt has passed is served. */
export const agreementDocuments = pgTable(
  'agreement_documents',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    code: text('code').notNull(),
    version: text('version').notNull(),
    title: text('title').notNull(),
    body: jsonb('body').$type<AgreementBody>().notNull(),
    effectiveAt: ts('effective_at').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('agreement_documents_code_version').on(t.code, t.version)],
);

/** Daily news (/audit-new): credit knowledge, fraud warnings, responsible borrowing. */
export const articles = pgTable(
  'articles',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    slug: text('slug').notNull().unique(),
    title: text('title').notNull(),
    summary: text('summary').notNull(),
    category: text('category').notNull(),
    /** Paragraphs of plain text. */
    body: jsonb('body').$type<string[]>().notNull(),
    status: text('status', { enum: ['draft', 'published'] })
      .notNull()
      .default('published'),
    publishedAt: ts('published_at').notNull(),
    views: integer('views').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('articles_published').on(t.status, t.publishedAt)],
);

/** Banners by placement (homeDialog = GET /api/banner/homeDialogBanner); null channelCodes = every channel. */
export const banners = pgTable(
  'banners',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    placement: text('placement').notNull(),
    title: text('title').notNull(),
    imageUrl: text('image_url').notNull(),
    targetUrl: text('target_url'),
    channelCodes: jsonb('channel_codes').$type<string[] | null>(),
    enabled: boolean('enabled').notNull().default(true),
    sort: integer('sort').notNull().default(0),
    startsAt: ts('starts_at').notNull().defaultNow(),
    endsAt: ts('ends_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('banners_placement').on(t.placement, t.enabled)],
);

/** Page configuration by code (GET /api/pageConfig/getPageConfigByCode, getAppIndexIconList). */
export const pageConfigs = pgTable('page_configs', {
  code: text('code').primaryKey(),
  config: jsonb('config').$type<Record<string, unknown>>().notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** Published app versions (GET /api/appVersion/newestVersion and the app-download JSON). */
export const appVersions = pgTable(
  'app_versions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    platform: text('platform', { enum: ['android', 'ios'] }).notNull(),
    version: text('version').notNull(),
    build: integer('build').notNull(),
    downloadUrl: text('download_url').notNull(),
    notes: text('notes').notNull().default(''),
    forceUpdate: boolean('force_update').notNull().default(false),
    publishedAt: ts('published_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('app_versions_platform_version').on(t.platform, t.version)],
);

/**
 * Client reports of spec §7 "Reporting and misc" (report/type, report/click, report/h5device,
 * report/log, user/info/log, reportUserDownloadApp). Nothing personal: user id, hashed device, channel.
 */
export const clientReports = pgTable(
  'client_reports',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind', { enum: ['type', 'click', 'h5device', 'log', 'userInfoLog', 'download'] }).notNull(),
    /** The `type` / `devicePlatForm` query value, or null. */
    name: text('name'),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    deviceHash: text('device_hash'),
    channelCode: text('channel_code'),
    /** Shanghai calendar day. */
    day: day('day').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('client_reports_kind_day').on(t.kind, t.day)],
);

/** Who changed or revealed what in the console (issue 7): before and after, with the reason given. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    staffId: integer('staff_id').references(() => staff.id, { onDelete: 'set null' }),
    /** The staff member's name at the time (kept if the account is removed). */
    staffName: text('staff_name').notNull(),
    /** e.g. create, update, status, reveal, retry, discard, rotate-secret. */
    action: text('action').notNull(),
    /** e.g. channel, partner, product, lead, user, staff, notice. */
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    before: jsonb('before').$type<Record<string, unknown> | null>(),
    after: jsonb('after').$type<Record<string, unknown> | null>(),
    /** Required for reveals of personal data. */
    reason: text('reason'),
    ip: text('ip'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('audit_log_entity').on(t.entity, t.entityId), index('audit_log_created').on(t.createdAt)],
);

/**
 * Real-user monitoring (issue 8, spec §9 browser-performance monitor): Core Web Vitals and script-chunk
 * load failures measured on people's phones, sent in batches with sendBeacon.
 */
export const webVitals = pgTable(
  'web_vitals',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** LCP, INP, CLS, TTFB, FCP, or CHUNK_ERROR. */
    metric: text('metric').notNull(),
    /** ms for timings, unitless for CLS; 1 for a chunk error. */
    value: doublePrecision('value').notNull(),
    /** good / needs-improvement / poor by the Core Web Vitals thresholds. */
    rating: text('rating'),
    /** The route pattern (e.g. /fill-information/success), never the query. */
    route: text('route').notNull(),
    channelCode: text('channel_code'),
    skin: smallint('skin'),
    /** Fixed per spec §9: environment prod, version 1.0.3 (or the build's version). */
    env: text('env').notNull(),
    appVersion: text('app_version').notNull(),
    /** Navigation type / connection (e.g. navigate, reload; 4g). */
    navigationType: text('navigation_type'),
    connection: text('connection'),
    deviceHash: text('device_hash'),
    /** Shanghai calendar day. */
    day: day('day').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('web_vitals_day_metric').on(t.day, t.metric, t.route)],
);

// --- money (issue 48, ADR 073) ---------------------------------------------------------------------------

/**
 * What a channel costs, from a Shanghai day on (issue 48.2): CPC fen per counted click, CPA fen per
 * registration or per lead, a revenue share in bps of the lead revenue its people bring, or `spend`: the cost
 * is the spend imported from the ad platform's daily report. The model in force at an instant is the row with
 * the latest `effective_from` ≤ it (one model at a time per channel). Rows are only added.
 */
export const channelCosts = pgTable(
  'channel_costs',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    model: text('model', { enum: ['cpc', 'cpa_register', 'cpa_lead', 'rev_share', 'spend'] }).notNull(),
    /** Fen per click, registration or lead (cpc, cpa_*); null otherwise. */
    amountFen: bigint('amount_fen', { mode: 'number' }),
    /** Basis points of the lead revenue (rev_share); null otherwise. */
    bps: integer('bps'),
    /** The start (00:00 Asia/Shanghai, as the UTC instant) of the day the cost takes effect. */
    effectiveFrom: ts('effective_from').notNull(),
    createdBy: integer('created_by').references(() => staff.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('channel_costs_channel_from').on(t.channelId, t.effectiveFrom),
    check(
      'channel_costs_value',
      sql`(${t.model} = 'rev_share' and ${t.bps} between 1 and 10000 and ${t.amountFen} is null) or (${t.model} in ('cpc', 'cpa_register', 'cpa_lead') and ${t.amountFen} between 0 and 100000000 and ${t.bps} is null) or (${t.model} = 'spend' and ${t.amountFen} is null and ${t.bps} is null)`,
    ),
  ],
);

/** An imported spend file (issue 48.2): a file imported twice (same hash) is a no-op. */
export const spendImports = pgTable('spend_imports', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  fileHash: text('file_hash').notNull().unique(),
  fileName: text('file_name').notNull(),
  rowsTotal: integer('rows_total').notNull(),
  rowsImported: integer('rows_imported').notNull(),
  rowsRejected: integer('rows_rejected').notNull(),
  createdBy: integer('created_by').references(() => staff.id, { onDelete: 'set null' }),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/** The accepted rows of an import: a channel's spend on a Shanghai day, in fen, with the file's line. */
export const spendRows = pgTable(
  'spend_rows',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    importId: integer('import_id')
      .notNull()
      .references(() => spendImports.id, { onDelete: 'restrict' }),
    line: integer('line').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    channelId: integer('channel_id').notNull(),
    channelCode: text('channel_code').notNull(),
    amountFen: bigint('amount_fen', { mode: 'number' }).notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('spend_rows_day_channel').on(t.day, t.channelId)],
);

/**
 * A lender's return of a lead (issue 48.4): once per lead; `accepted` reverses the lead's revenue in the
 * ledger, `disputed` waits for staff (accept → reversed, reject → nothing).
 */
export const leadReturns = pgTable(
  'lead_returns',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    leadId: bigint('lead_id', { mode: 'number' }).notNull().unique(),
    partnerId: integer('partner_id')
      .notNull()
      .references(() => partners.id, { onDelete: 'restrict' }),
    transactionId: text('transaction_id').notNull(),
    reason: text('reason', {
      enum: ['duplicate', 'invalid_phone', 'out_of_area', 'fraud', 'other'],
    }).notNull(),
    reasonText: text('reason_text'),
    status: text('status', { enum: ['accepted', 'disputed', 'rejected'] }).notNull(),
    /** Why it waits for staff (disputed), in words. */
    disputeReason: text('dispute_reason'),
    reviewedBy: integer('reviewed_by').references(() => staff.id, { onDelete: 'set null' }),
    reviewedAt: ts('reviewed_at'),
    reviewNote: text('review_note'),
    /** When the lender returned it (the Shanghai month it counts against the lender's rate). */
    requestedAt: ts('requested_at').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('lead_returns_partner_txn').on(t.partnerId, t.transactionId),
    index('lead_returns_partner_requested').on(t.partnerId, t.requestedAt),
    index('lead_returns_status').on(t.status),
  ],
);

/**
 * The ledger (issue 48.3, ADR 073): append-only entries in integer fen. `amount_fen` is signed from the
 * party's account: for a lender what it owes us (lead revenue +, a return −), for a channel what we owe it
 * (cost +, a payout −); an adjustment carries its sign, a reason and the staff member. `month` is the Shanghai
 * month the entry is booked in: its event's month, or the first open month after it when that one was closed
 * (`event_at` keeps the event's instant). Unique on (kind, reference): a retried event posts once. A trigger
 * refuses UPDATE and DELETE (migration 0024): a correction is a new entry.
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind', {
      enum: ['lead_revenue', 'return', 'channel_cost', 'payout', 'adjustment'],
    }).notNull(),
    partyType: text('party_type', { enum: ['lender', 'channel'] }).notNull(),
    /** partners.id (lender) or channels.id (channel); no foreign key: entries outlive what they name. */
    partyId: integer('party_id').notNull(),
    partyCode: text('party_code').notNull(),
    month: text('month').notNull(),
    /**
     * The Shanghai month the event belongs to: its own month, or for a return the month the lead was charged in.
     * `month` is later when that one was closed (the entry is "late", booked in the next open month).
     */
    eventMonth: text('event_month').notNull(),
    eventAt: ts('event_at').notNull(),
    amountFen: bigint('amount_fen', { mode: 'number' }).notNull(),
    /** What it is for, unique per kind: `lead:<id>:cpl`, `lead:<id>:cpa`, `outcome:<id>:cps`, `return:<id>`, … */
    reference: text('reference').notNull(),
    /** The price model and row applied (product_prices or channel_costs id), the basis and the quantity. */
    model: text('model'),
    priceId: integer('price_id'),
    basisFen: bigint('basis_fen', { mode: 'number' }),
    quantity: integer('quantity'),
    leadId: bigint('lead_id', { mode: 'number' }),
    productId: integer('product_id'),
    /** The channel a lender entry's lead came from (ROI per channel); null for channel entries and unknown. */
    channelCode: text('channel_code'),
    reason: text('reason'),
    staffId: integer('staff_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ledger_entries_kind_reference').on(t.kind, t.reference),
    index('ledger_entries_month_party').on(t.month, t.partyType, t.partyId),
    index('ledger_entries_lead').on(t.leadId),
    index('ledger_entries_event').on(t.eventAt),
    check('ledger_entries_month', sql`${t.month} ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'`),
    check(
      'ledger_entries_event_month',
      sql`${t.eventMonth} ~ '^[0-9]{4}-(0[1-9]|1[0-2])$' and ${t.eventMonth} <= ${t.month}`,
    ),
  ],
);

/** Closed Shanghai months (issue 48.5): nothing more is booked in them; later events go to the next open month. */
export const monthCloses = pgTable('month_closes', {
  month: text('month').primaryKey(),
  closedBy: integer('closed_by').references(() => staff.id, { onDelete: 'set null' }),
  closedAt: ts('closed_at').notNull().defaultNow(),
});
