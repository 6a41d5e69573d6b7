import type { Db } from '../../db/client.ts';
import type { Actor } from '../../lib/actor.ts';
import { type AuditInsert, AuditRepository } from './repository.ts';

export interface AuditInput {
  action: string;
  entity: string;
  entityId?: string | number | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  reason?: string | null;
}

/** Keys never written to the audit log in clear (secrets, encrypted columns). */
const SECRET_KEY = /secret|password|token|Enc$/i;

/** Drops secrets and encrypted values from a snapshot; what remains is what an auditor reads. */
export function auditSnapshot(
  value: Record<string, unknown> | null | undefined,
): Record<string, unknown> | null {
  if (!value) return null;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (SECRET_KEY.test(k)) {
      out[k] = v == null ? v : '***';
      continue;
    }
    out[k] = v instanceof Date ? v.toISOString() : v;
  }
  return out;
}

/** The row of one audit entry for the staff member acting ('system' without one), with the caller's IP. */
export function auditEntry(actor: Actor, input: AuditInput): AuditInsert {
  const staff = actor.staff;
  return {
    staffId: staff?.id ?? null,
    staffName: staff?.name ?? 'system',
    action: input.action,
    entity: input.entity,
    entityId: input.entityId == null ? null : String(input.entityId),
    before: auditSnapshot(input.before),
    after: auditSnapshot(input.after),
    reason: input.reason ?? null,
    ip: actor.ip,
  };
}

/**
 * Writes one audit entry for the staff member acting (every console change and every reveal);
 * without one the entry is the system's ('system'), with the caller's IP.
 * Pass the transaction that makes the change, so the change and its record commit together: the
 * audit repository is built on that handle.
 */
export async function recordAudit(db: Db, actor: Actor, input: AuditInput): Promise<void> {
  await new AuditRepository(db).insert(auditEntry(actor, input));
}

/** The audit log for callers outside a transaction of their own (e.g. a staff member reading a private file). */
export class AuditLog {
  constructor(private readonly repo: AuditRepository) {}

  record(actor: Actor, input: AuditInput): Promise<void> {
    return this.repo.insert(auditEntry(actor, input));
  }
}
