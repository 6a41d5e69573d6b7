import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { creditProfiles } from '../../db/schema.ts';

/** The credit information's columns of credit_profiles (data_enc; audit_status is read, never written). */
export class CreditInfoRepository {
  constructor(private readonly db: Db) {}

  /** Runs `fn` in one transaction; `repo` works on it. */
  transaction<T>(fn: (repo: CreditInfoRepository, tx: Db) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) =>
      fn(new CreditInfoRepository(tx as unknown as Db), tx as unknown as Db),
    );
  }

  /** The person's record (encrypted) and face status. */
  async find(userId: number): Promise<{ dataEnc: string; auditStatus: number } | undefined> {
    const [row] = await this.db
      .select({ dataEnc: creditProfiles.dataEnc, auditStatus: creditProfiles.auditStatus })
      .from(creditProfiles)
      .where(eq(creditProfiles.userId, userId))
      .limit(1);
    return row;
  }

  /** Creates the person's row with `emptyEnc` (face status by default) unless it exists. */
  async ensureRow(userId: number, emptyEnc: string): Promise<void> {
    await this.db
      .insert(creditProfiles)
      .values({ userId, dataEnc: emptyEnc })
      .onConflictDoNothing({ target: creditProfiles.userId });
  }

  /** The person's record, its row locked (FOR UPDATE) until the transaction ends. */
  async lockData(userId: number): Promise<{ dataEnc: string } | undefined> {
    const [row] = await this.db
      .select({ dataEnc: creditProfiles.dataEnc })
      .from(creditProfiles)
      .where(eq(creditProfiles.userId, userId))
      .for('update');
    return row;
  }

  /** Replaces the record; answers when (the database's now()) and the face status. */
  async saveData(userId: number, dataEnc: string): Promise<{ updatedAt: Date; auditStatus: number }> {
    const [saved] = await this.db
      .update(creditProfiles)
      .set({ dataEnc, updatedAt: sql`now()` })
      .where(eq(creditProfiles.userId, userId))
      .returning({ updatedAt: creditProfiles.updatedAt, auditStatus: creditProfiles.auditStatus });
    return saved!;
  }
}
