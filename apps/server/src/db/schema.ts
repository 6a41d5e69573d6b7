import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Ad-platform callback parameters captured from the landing URL and sent back as track_report. */
export interface TrackReportConfig {
  /** Ad platform, e.g. "oceanengine", "baidu", "kuaishou". */
  platform: string;
  /** Query keys of the landing URL to capture (e.g. clickid, callback, bd_vid). */
  params: string[];
}

export interface LicensedCompany {
  companyName: string;
  filingNumber: string;
}

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
  footer: jsonb('footer').$type<LicensedCompany[]>().notNull().default([]),
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
  },
  (t) => [index('sms_codes_lookup').on(t.phoneHash, t.purpose, t.createdAt)],
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
    role: text('role', { enum: ['admin', 'operator', 'viewer'] }).notNull(),
    status: text('status', { enum: ['active', 'disabled'] })
      .notNull()
      .default('active'),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastLoginAt: ts('last_login_at'),
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
