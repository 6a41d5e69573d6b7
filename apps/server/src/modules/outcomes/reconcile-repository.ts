import { and, asc, eq, gte, inArray, isNotNull, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { leadOutcomes, leads, partners } from '../../db/schema.ts';
import type { Actor } from '../../lib/actor.ts';
import { type AuditInput, recordAudit } from '../audit/service.ts';
import type { OurLead } from './reconcile-rules.ts';

/** How many keys one `in (…)` names. */
const CHUNK = 1000;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

type LeadBase = Omit<OurLead, 'approvedLimitFen' | 'fundedAmountFen'>;

const leadColumns = {
  recordId: leads.id,
  userId: leads.userId,
  leadId: leads.idempotencyKey,
  status: leads.outcome,
  deliveredAt: leads.deliveredAt,
};

/** What a reconciliation reads of a lender's leads and their outcomes (issue 47.4); it writes only its audit entry. */
export class ReconcileRepository {
  constructor(private readonly db: Db) {}

  async partner(id: number): Promise<{ id: number; code: string } | null> {
    const [row] = await this.db
      .select({ id: partners.id, code: partners.code })
      .from(partners)
      .where(eq(partners.id, id));
    return row ?? null;
  }

  /** This lender's leads among `keys` (another lender's lead with one of these keys is not read). */
  async leadsByKeys(partnerId: number, keys: readonly string[]): Promise<LeadBase[]> {
    const out: LeadBase[] = [];
    for (const part of chunks([...new Set(keys)])) {
      out.push(
        ...(await this.db
          .select(leadColumns)
          .from(leads)
          .where(and(eq(leads.partnerId, partnerId), inArray(leads.idempotencyKey, part)))),
      );
    }
    return out;
  }

  /** This lender's leads delivered in [start, end), oldest first. */
  async deliveredBetween(partnerId: number, start: Date, end: Date): Promise<LeadBase[]> {
    return this.db
      .select(leadColumns)
      .from(leads)
      .where(and(eq(leads.partnerId, partnerId), gte(leads.deliveredAt, start), lt(leads.deliveredAt, end)))
      .orderBy(asc(leads.deliveredAt), asc(leads.id));
  }

  /** This lender's leads with an outcome reported, oldest delivery first. */
  async withOutcome(partnerId: number): Promise<LeadBase[]> {
    return this.db
      .select(leadColumns)
      .from(leads)
      .where(and(eq(leads.partnerId, partnerId), isNotNull(leads.outcome)))
      .orderBy(asc(leads.deliveredAt), asc(leads.id));
  }

  /** Approvals and funded loans reported for these leads, in the order received. */
  async amounts(leadIds: readonly number[]) {
    const out: { leadId: number; status: string; limitFen: number | null; amountFen: number | null }[] = [];
    for (const part of chunks([...new Set(leadIds)])) {
      out.push(
        ...(await this.db
          .select({
            leadId: leadOutcomes.leadId,
            status: leadOutcomes.status,
            limitFen: leadOutcomes.limitFen,
            amountFen: leadOutcomes.amountFen,
          })
          .from(leadOutcomes)
          .where(
            and(inArray(leadOutcomes.leadId, part), inArray(leadOutcomes.status, ['approved', 'funded'])),
          )
          .orderBy(asc(leadOutcomes.id))),
      );
    }
    return out;
  }

  recordAudit(actor: Actor, input: AuditInput): Promise<void> {
    return recordAudit(this.db, actor, input);
  }
}
