import type { AdminLeadItem } from '@lm/shared/schemas/admin-leads';
import { eq, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  consents,
  type leadAttempts,
  leads,
  matchOffers,
  matchRuns,
  partners,
  products,
  users,
} from '../../db/schema.ts';
import type { Actor } from '../../lib/actor.ts';
import type { KeyRing } from '../../lib/crypto.ts';

export interface AdminLeadsDeps {
  db: Db;
  ring: KeyRing;
  phoneIndex(phone: string): string;
}

/** A transaction handle (drizzle's transaction has the query API of the database). */
export type Tx = Db;

export const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
export const RUN_LIMIT = 50;
export const SESSION_LIMIT = 20;
/** Dead leads put back per bulk call (each is audit-logged in the same transaction). */
export const BULK_RETRY_LIMIT = 1000;

/** Columns of a lead row in the console (masked). */
export const leadColumns = {
  id: leads.id,
  userId: leads.userId,
  phoneMasked: users.mobileMasked,
  channelCode: matchRuns.adChannelCode,
  productId: leads.productId,
  productName: products.productName,
  partnerId: leads.partnerId,
  partnerName: partners.legalName,
  mode: leads.mode,
  status: leads.status,
  attempts: leads.attempts,
  nextAttemptAt: leads.nextAttemptAt,
  lastError: leads.lastError,
  partnerRef: leads.partnerRef,
  autoForm: leads.autoForm,
  createdAt: leads.createdAt,
  deliveredAt: leads.deliveredAt,
  updatedAt: leads.updatedAt,
};

export type LeadRow = {
  [K in keyof typeof leadColumns]: (typeof leadColumns)[K]['_']['notNull'] extends true
    ? (typeof leadColumns)[K]['_']['data']
    : (typeof leadColumns)[K]['_']['data'] | null;
};

export function leadItem({ consentId: _consent, ...r }: LeadRow & { consentId?: number }): AdminLeadItem {
  return {
    ...r,
    nextAttemptAt: r.nextAttemptAt.toISOString(),
    createdAt: r.createdAt.toISOString(),
    deliveredAt: iso(r.deliveredAt),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/**
 * Whether a staff member sees the details of delivery attempts (why each one failed): administrators
 * only (ADR 019); other roles see the outcome and the HTTP status.
 */
export function seesAttemptDetails(actor: Actor): boolean {
  return actor.staff?.role === 'admin';
}

/** One delivery attempt for the console; `details` only for administrators. */
export function attemptItem(a: typeof leadAttempts.$inferSelect, details: boolean) {
  return {
    id: a.id,
    attempt: a.attempt,
    startedAt: a.startedAt.toISOString(),
    durationMs: a.durationMs,
    httpStatus: a.httpStatus,
    outcome: a.outcome,
    error: details ? a.error : null,
  };
}

/** Leads with their person, product, lender and run, for the console (masked columns). */
export function leadQuery(db: Db, where: SQL | undefined) {
  return db
    .select({ ...leadColumns, consentId: leads.consentId })
    .from(leads)
    .innerJoin(users, eq(leads.userId, users.id))
    .innerJoin(products, eq(leads.productId, products.id))
    .innerJoin(partners, eq(leads.partnerId, partners.id))
    .innerJoin(consents, eq(leads.consentId, consents.id))
    .innerJoin(matchOffers, eq(consents.offerId, matchOffers.id))
    .innerJoin(matchRuns, eq(matchOffers.runId, matchRuns.id))
    .where(where)
    .$dynamic();
}
