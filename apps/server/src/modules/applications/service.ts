import { maskIdCard, maskName } from '@lm/shared/mask';
import type { ApplicationDraft } from '@lm/shared/schemas/application';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { applicationDrafts } from '../../db/schema.ts';
import { decryptField, encryptField, type KeyRing } from '../../lib/crypto.ts';

export interface ApplicationDeps {
  db: Db;
  ring: KeyRing;
}

/** Application-form drafts (spec §3): one per person, stored encrypted as a whole. */
export class ApplicationService {
  constructor(private readonly d: ApplicationDeps) {}

  private decode(dataEnc: string): ApplicationDraft {
    return JSON.parse(decryptField(this.d.ring, dataEnc)) as ApplicationDraft;
  }

  /** The stored draft in clear, or an empty object. */
  async draft(userId: number): Promise<ApplicationDraft> {
    const [row] = await this.d.db
      .select({ dataEnc: applicationDrafts.dataEnc })
      .from(applicationDrafts)
      .where(eq(applicationDrafts.userId, userId))
      .limit(1);
    return row ? this.decode(row.dataEnc) : {};
  }

  /** The draft as shown back to the person: real name and ID number masked. */
  async shownDraft(userId: number): Promise<ApplicationDraft> {
    const draft = await this.draft(userId);
    return {
      ...draft,
      ...(draft.realName ? { realName: maskName(draft.realName) } : {}),
      ...(draft.identity ? { identity: maskIdCard(draft.identity) } : {}),
    };
  }

  /**
   * Merges `patch` into the stored draft (fields given replace, fields absent are kept). The row is
   * locked while merging so that concurrent autosaves of one person never lose a field.
   */
  async tempSave(userId: number, patch: ApplicationDraft): Promise<Date> {
    return this.d.db.transaction(async (tx) => {
      await tx
        .insert(applicationDrafts)
        .values({ userId, dataEnc: encryptField(this.d.ring, '{}') })
        .onConflictDoNothing({ target: applicationDrafts.userId });
      const [row] = await tx
        .select({ dataEnc: applicationDrafts.dataEnc })
        .from(applicationDrafts)
        .where(eq(applicationDrafts.userId, userId))
        .for('update');
      const merged = { ...(row ? this.decode(row.dataEnc) : {}), ...patch };
      const [saved] = await tx
        .update(applicationDrafts)
        .set({ dataEnc: encryptField(this.d.ring, JSON.stringify(merged)), updatedAt: sql`now()` })
        .where(eq(applicationDrafts.userId, userId))
        .returning({ updatedAt: applicationDrafts.updatedAt });
      return saved!.updatedAt;
    });
  }
}
