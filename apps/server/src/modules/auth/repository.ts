import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { applicationDrafts, channels, creditProfiles, sessions, smsOutbox, users } from '../../db/schema.ts';
import { endAdAttribution } from '../conversions/reports-repository.ts';

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
type NewUser = typeof users.$inferInsert;
type NewSession = typeof sessions.$inferInsert;

/** The person's account and sessions (users, sessions) and what cancellation erases. */
export class AuthRepository {
  constructor(private readonly db: Db) {}

  /** Runs `fn` in one transaction; `repo` works on it, `tx` is the handle for other modules' repositories. */
  transaction<T>(fn: (repo: AuthRepository, tx: Db) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new AuthRepository(tx as unknown as Db), tx as unknown as Db));
  }

  /** The active person with this phone blind index. */
  async findActiveByPhoneHash(mobileHash: string): Promise<UserRow | undefined> {
    const [row] = await this.db
      .select()
      .from(users)
      .where(and(eq(users.mobileHash, mobileHash), eq(users.status, 'active')))
      .limit(1);
    return row;
  }

  /** The id of the channel with this code, or null. */
  async findChannelId(adChannelCode: string): Promise<number | null> {
    const [channel] = await this.db
      .select({ id: channels.id })
      .from(channels)
      .where(eq(channels.adChannelCode, adChannelCode))
      .limit(1);
    return channel?.id ?? null;
  }

  /** Inserts a person (throws on the active-phone unique index). */
  async insertUser(values: NewUser): Promise<UserRow> {
    const [created] = await this.db.insert(users).values(values).returning();
    return created!;
  }

  /** Stamps a login on the person's row (which locks it for the rest of a transaction). */
  async recordLogin(
    userId: number,
    now: Date,
    set: { abTestType?: number | undefined; isFormReq?: boolean | undefined },
  ): Promise<void> {
    await this.db
      .update(users)
      .set({
        lastLoginAt: now,
        ...(set.abTestType !== undefined ? { abTestType: set.abTestType } : {}),
        ...(set.isFormReq !== undefined ? { isFormReq: set.isFormReq } : {}),
      })
      .where(eq(users.id, userId));
  }

  /** Revokes every session of the person not yet revoked. */
  async revokeActiveSessions(userId: number, now: Date, reason: 'replaced' | 'cancelled'): Promise<void> {
    await this.db
      .update(sessions)
      .set({ revokedAt: now, revokeReason: reason })
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
  }

  async insertSession(values: NewSession): Promise<void> {
    await this.db.insert(sessions).values(values);
  }

  /** The session with this token hash and its person. */
  async findSessionByTokenHash(
    tokenHash: string,
  ): Promise<{ session: SessionRow; user: UserRow } | undefined> {
    const [row] = await this.db
      .select({ session: sessions, user: users })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(sessions.tokenHash, tokenHash))
      .limit(1);
    return row;
  }

  /** Ends one session (logout) unless it is already revoked. */
  async revokeSession(sessionId: number, now: Date): Promise<void> {
    await this.db
      .update(sessions)
      .set({ revokedAt: now, revokeReason: 'logout' })
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
  }

  /** Erases the person's phone and marks the row cancelled (what is not personal stays). */
  async markCancelled(userId: number, now: Date): Promise<void> {
    await this.db
      .update(users)
      .set({
        mobileEnc: null,
        mobileHash: null,
        mobileMasked: '已注销',
        abTestType: null,
        status: 'cancelled',
        cancelledAt: now,
      })
      .where(eq(users.id, userId));
  }

  /** Forgets the address and user agent of every session of the person. */
  async clearSessionClients(userId: number): Promise<void> {
    await this.db.update(sessions).set({ ip: null, userAgent: null }).where(eq(sessions.userId, userId));
  }

  /** Deletes the dev SMS outbox's messages to a phone. */
  async deleteOutboxMessages(phoneHash: string): Promise<void> {
    await this.db.delete(smsOutbox).where(eq(smsOutbox.phoneHash, phoneHash));
  }

  async deleteApplicationDraft(userId: number): Promise<void> {
    await this.db.delete(applicationDrafts).where(eq(applicationDrafts.userId, userId));
  }

  async deleteCreditProfile(userId: number): Promise<void> {
    await this.db.delete(creditProfiles).where(eq(creditProfiles.userId, userId));
  }

  /** Ends the person's ad attribution (issue 47.7): see `endAdAttribution` of the conversion reports. */
  endAdAttribution(userId: number): Promise<void> {
    return endAdAttribution(this.db, userId);
  }
}
