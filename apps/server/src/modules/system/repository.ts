import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { smsOutbox } from '../../db/schema.ts';

export type SmsOutboxRow = typeof smsOutbox.$inferSelect;

/** The dev outbox of the console SMS provider. */
export class SystemRepository {
  constructor(private readonly db: Db) {}

  /** One message the console provider "sent" (its phone as blind index and masked). */
  async appendOutbox(row: { phoneHash: string; phoneMasked: string; message: string }): Promise<void> {
    await this.db.insert(smsOutbox).values(row);
  }

  /** The last `limit` messages to the phone with this blind index, newest first. */
  latestOutboxOf(phoneHash: string, limit: number): Promise<SmsOutboxRow[]> {
    return this.db
      .select()
      .from(smsOutbox)
      .where(eq(smsOutbox.phoneHash, phoneHash))
      .orderBy(desc(smsOutbox.id))
      .limit(limit);
  }
}
