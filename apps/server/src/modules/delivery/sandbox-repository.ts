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

  latest(code: string, limit: number) {
    return this.db
      .select()
      .from(sandboxPartnerLeads)
      .where(eq(sandboxPartnerLeads.partnerCode, code))
      .orderBy(desc(sandboxPartnerLeads.id))
      .limit(limit);
  }
}
