import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Advertising channels. Later issues add skin, flow and footer settings. */
export const channels = pgTable('channels', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  adChannelCode: text('ad_channel_code').notNull().unique(),
  name: text('name').notNull(),
  channelStatus: smallint('channel_status').notNull().default(1),
  linkType: smallint('link_type').notNull().default(1),
  flags: text('flags').notNull().default('skin17'),
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
