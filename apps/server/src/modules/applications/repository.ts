import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { applicationDrafts } from '../../db/schema.ts';

/** Application-form drafts (application_drafts): one row per person, the draft encrypted. */
export class ApplicationRepository {
  constructor(private readonly db: Db) {}

  /** Runs `fn` in one transaction; `repo` works on it. */
  transaction<T>(fn: (repo: ApplicationRepository, tx: Db) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) =>
      fn(new ApplicationRepository(tx as unknown as Db), tx as unknown as Db),
    );
  }

  /** The person's draft (encrypted). */
  async findDraft(userId: number): Promise<string | undefined> {
    const [row] = await this.db
      .select({ dataEnc: applicationDrafts.dataEnc })
      .from(applicationDrafts)
      .where(eq(applicationDrafts.userId, userId))
      .limit(1);
    return row?.dataEnc;
  }

  /** Creates the person's draft row with `emptyEnc` unless it exists. */
  async ensureDraft(userId: number, emptyEnc: string): Promise<void> {
    await this.db
      .insert(applicationDrafts)
      .values({ userId, dataEnc: emptyEnc })
      .onConflictDoNothing({ target: applicationDrafts.userId });
  }

  /** The person's draft, its row locked (FOR UPDATE) until the transaction ends. */
  async lockDraft(userId: number): Promise<string | undefined> {
    const [row] = await this.db
      .select({ dataEnc: applicationDrafts.dataEnc })
      .from(applicationDrafts)
      .where(eq(applicationDrafts.userId, userId))
      .for('update');
    return row?.dataEnc;
  }

  /** Replaces the draft; answers when (the database's now()). */
  async saveDraft(userId: number, dataEnc: string): Promise<Date> {
    const [saved] = await this.db
      .update(applicationDrafts)
      .set({ dataEnc, updatedAt: sql`now()` })
      .where(eq(applicationDrafts.userId, userId))
      .returning({ updatedAt: applicationDrafts.updatedAt });
    return saved!.updatedAt;
  }
}
