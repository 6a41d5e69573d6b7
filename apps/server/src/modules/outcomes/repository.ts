import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { leadOutcomes, leads } from '../../db/schema.ts';

export type LeadOutcomeRow = typeof leadOutcomes.$inferSelect;

/** Lender outcomes (`lead_outcomes`, `leads.outcome`; issue 47.4). */
export class OutcomeRepository {
  constructor(private readonly db: Db) {}

  transaction<T>(fn: (tx: OutcomeRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new OutcomeRepository(tx as unknown as Db)));
  }

  /** This lender's lead with this key, locked for the transaction (null: none of this lender's). */
  async leadOf(partnerId: number, leadKey: string) {
    const [row] = await this.db
      .select({ id: leads.id, userId: leads.userId, outcome: leads.outcome })
      .from(leads)
      .where(and(eq(leads.partnerId, partnerId), eq(leads.idempotencyKey, leadKey)))
      .for('update');
    return row ?? null;
  }

  async byTransaction(partnerId: number, transactionId: string): Promise<LeadOutcomeRow | null> {
    const [row] = await this.db
      .select()
      .from(leadOutcomes)
      .where(and(eq(leadOutcomes.partnerId, partnerId), eq(leadOutcomes.transactionId, transactionId)));
    return row ?? null;
  }

  /** Inserts the outcome unless this lender sent this transaction id before; null then. */
  async insertOnce(values: typeof leadOutcomes.$inferInsert): Promise<LeadOutcomeRow | null> {
    const [row] = await this.db.insert(leadOutcomes).values(values).onConflictDoNothing().returning();
    return row ?? null;
  }

  async setOutcome(leadId: number, outcome: NonNullable<LeadOutcomeRow['status']>, now: Date): Promise<void> {
    await this.db.update(leads).set({ outcome, updatedAt: now }).where(eq(leads.id, leadId));
  }

  async ofLead(leadId: number): Promise<LeadOutcomeRow[]> {
    return this.db
      .select()
      .from(leadOutcomes)
      .where(eq(leadOutcomes.leadId, leadId))
      .orderBy(leadOutcomes.id);
  }
}
