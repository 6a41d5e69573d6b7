import type { AdminLeadItem, AdminLeadOutcome } from '@lm/shared/schemas/admin-leads';
import type { Actor } from '../../lib/actor.ts';
import type { LeadAttemptRow, LeadOutcomeRow, LeadRow } from './repository.ts';

export const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
export const RUN_LIMIT = 50;
export const SESSION_LIMIT = 20;
/** Dead leads put back per bulk call (each is audit-logged in the same transaction). */
export const BULK_RETRY_LIMIT = 1000;

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

/** The evidence of a consent as the console shows it (a lead's detail, a person's record). */
export function consentEvidence(c: {
  id: number;
  agreementCode: string;
  agreementVersion: string;
  textHash: string;
  fields: string[];
  createdAt: Date;
  withdrawnAt: Date | null;
}) {
  return {
    id: c.id,
    agreementCode: c.agreementCode,
    agreementVersion: c.agreementVersion,
    textHash: c.textHash,
    fields: c.fields,
    createdAt: c.createdAt.toISOString(),
    withdrawnAt: iso(c.withdrawnAt),
  };
}

/** One delivery attempt for the console; `details` only for administrators. */
export function attemptItem(a: LeadAttemptRow, details: boolean) {
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

/** One report of the lead's lender for the console (issue 47.6). */
export function outcomeItem(o: LeadOutcomeRow): AdminLeadOutcome {
  return {
    id: o.id,
    transactionId: o.transactionId,
    status: o.status,
    limitFen: o.limitFen,
    rateBps: o.rateBps,
    amountFen: o.amountFen,
    termMonths: o.termMonths,
    reason: o.reason,
    applied: o.applied,
    occurredAt: o.occurredAt.toISOString(),
    receivedAt: o.receivedAt.toISOString(),
  };
}
