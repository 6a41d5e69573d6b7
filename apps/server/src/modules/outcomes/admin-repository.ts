import type { OutcomeStatus } from '@lm/shared/outcomes';
import { and, count, desc, eq, gte, isNotNull, lt, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { leadOutcomes, leads, partners, products } from '../../db/schema.ts';

/** What one delivered lead's reports amount to (leads without a report are absent). */
export interface LeadOutcomeFacts {
  leadId: number;
  outcome: OutcomeStatus | null;
  /** Seconds from the delivery to the first report, the first approval, the first funding (null: none). */
  firstSeconds: number | null;
  approvedSeconds: number | null;
  fundedSeconds: number | null;
  /** The latest approval's limit and the latest funding's amount, in fen (null: none). */
  limitFen: number | null;
  amountFen: number | null;
}

export interface Span {
  start: Date;
  end: Date;
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** The console's view of one lender's outcomes (issue 47.6): its queries; the figures are the service's. */
export class OutcomeAdminRepository {
  constructor(private readonly db: Db) {}

  async partner(partnerId: number): Promise<{ id: number; legalName: string } | null> {
    const [row] = await this.db
      .select({ id: partners.id, legalName: partners.legalName })
      .from(partners)
      .where(eq(partners.id, partnerId));
    return row ?? null;
  }

  /** The lender's leads delivered in `span`, per current outcome (null: nothing reported). */
  async countsByOutcome(
    partnerId: number,
    span: Span,
  ): Promise<{ outcome: OutcomeStatus | null; n: number }[]> {
    const rows = await this.db
      .select({ outcome: leads.outcome, n: count() })
      .from(leads)
      .where(
        and(
          eq(leads.partnerId, partnerId),
          isNotNull(leads.deliveredAt),
          gte(leads.deliveredAt, span.start),
          lt(leads.deliveredAt, span.end),
        ),
      )
      .groupBy(leads.outcome);
    return rows.map((r) => ({ outcome: r.outcome, n: Number(r.n) }));
  }

  /** Per lead delivered in `span` that the lender reported on: its latencies and amounts. */
  async leadFacts(partnerId: number, span: Span): Promise<LeadOutcomeFacts[]> {
    const result = await this.db.execute(sql`
      select l.id as lead_id, l.outcome,
        extract(epoch from (min(o.received_at) - l.delivered_at)) as first_s,
        extract(epoch from (min(o.received_at) filter (where o.status = 'approved') - l.delivered_at)) as approved_s,
        extract(epoch from (min(o.received_at) filter (where o.status = 'funded') - l.delivered_at)) as funded_s,
        (array_agg(o.limit_fen order by o.id desc) filter (where o.status = 'approved'))[1] as limit_fen,
        (array_agg(o.amount_fen order by o.id desc) filter (where o.status = 'funded'))[1] as amount_fen
      from leads l
      join lead_outcomes o on o.lead_id = l.id
      where l.partner_id = ${partnerId}
        and l.delivered_at >= ${span.start.toISOString()}::timestamptz
        and l.delivered_at < ${span.end.toISOString()}::timestamptz
      group by l.id, l.outcome, l.delivered_at`);
    return rowsOf<{
      lead_id: number | string;
      outcome: OutcomeStatus | null;
      first_s: number | string | null;
      approved_s: number | string | null;
      funded_s: number | string | null;
      limit_fen: number | string | null;
      amount_fen: number | string | null;
    }>(result).map((r) => ({
      leadId: Number(r.lead_id),
      outcome: r.outcome,
      firstSeconds: num(r.first_s),
      approvedSeconds: num(r.approved_s),
      fundedSeconds: num(r.funded_s),
      limitFen: num(r.limit_fen),
      amountFen: num(r.amount_fen),
    }));
  }

  /**
   * The lender's reports received in `span`, newest first, at most `limit`, with their lead's key and product
   * and whether an earlier report of the lead had the same status.
   */
  latest(partnerId: number, span: Span, limit: number) {
    return this.db
      .select({
        o: leadOutcomes,
        leadKey: leads.idempotencyKey,
        userId: leads.userId,
        productName: products.productName,
        sameStatusBefore:
          sql<boolean>`exists (select 1 from lead_outcomes b where b.lead_id = ${leadOutcomes.leadId} and b.status = ${leadOutcomes.status} and b.id < ${leadOutcomes.id})`.mapWith(
            Boolean,
          ),
      })
      .from(leadOutcomes)
      .innerJoin(leads, eq(leads.id, leadOutcomes.leadId))
      .innerJoin(products, eq(products.id, leads.productId))
      .where(
        and(
          eq(leadOutcomes.partnerId, partnerId),
          gte(leadOutcomes.receivedAt, span.start),
          lt(leadOutcomes.receivedAt, span.end),
        ),
      )
      .orderBy(desc(leadOutcomes.id))
      .limit(limit);
  }
}
