import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { sandboxPartnerLeads } from '../../db/schema.ts';

/** The sandbox lender's store (issue 18): the leads it received, per lender code. */
export class SandboxRepository {
  constructor(private readonly db: Db) {}

  async deleteLeads(code: string, keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.db
      .delete(sandboxPartnerLeads)
      .where(
        and(eq(sandboxPartnerLeads.partnerCode, code), inArray(sandboxPartnerLeads.idempotencyKey, keys)),
      );
  }

  /** Stores a lead once per (lender, key): its row id, and whether it was there already. */
  async insertOnce(row: {
    partnerCode: string;
    idempotencyKey: string;
    phoneHash: string;
    body: Record<string, unknown>;
  }): Promise<{ id: number; duplicate: boolean }> {
    const inserted = await this.db
      .insert(sandboxPartnerLeads)
      .values(row)
      .onConflictDoNothing()
      .returning({ id: sandboxPartnerLeads.id });
    const [stored] = await this.db
      .select({ id: sandboxPartnerLeads.id })
      .from(sandboxPartnerLeads)
      .where(
        and(
          eq(sandboxPartnerLeads.partnerCode, row.partnerCode),
          eq(sandboxPartnerLeads.idempotencyKey, row.idempotencyKey),
        ),
      );
    return { id: stored!.id, duplicate: inserted.length === 0 };
  }

  async hasPhone(code: string, hash: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: sandboxPartnerLeads.id })
      .from(sandboxPartnerLeads)
      .where(and(eq(sandboxPartnerLeads.partnerCode, code), eq(sandboxPartnerLeads.phoneHash, hash)))
      .limit(1);
    return Boolean(row);
  }

  /** Sets what the lender now says about lead `key` (its status query's answer); false: it never received it. */
  async setOutcome(code: string, key: string, outcome: Record<string, unknown>): Promise<boolean> {
    const rows = await this.db
      .update(sandboxPartnerLeads)
      .set({ outcome })
      .where(and(eq(sandboxPartnerLeads.partnerCode, code), eq(sandboxPartnerLeads.idempotencyKey, key)))
      .returning({ id: sandboxPartnerLeads.id });
    return rows.length > 0;
  }

  /** What the lender says about those of `keys` it received and was told about. */
  async outcomesOf(code: string, keys: string[]) {
    if (keys.length === 0) return [];
    return this.db
      .select({ key: sandboxPartnerLeads.idempotencyKey, outcome: sandboxPartnerLeads.outcome })
      .from(sandboxPartnerLeads)
      .where(
        and(eq(sandboxPartnerLeads.partnerCode, code), inArray(sandboxPartnerLeads.idempotencyKey, keys)),
      );
  }

  latest(code: string, limit: number) {
    return this.db
      .select()
      .from(sandboxPartnerLeads)
      .where(eq(sandboxPartnerLeads.partnerCode, code))
      .orderBy(desc(sandboxPartnerLeads.id))
      .limit(limit);
  }
}
