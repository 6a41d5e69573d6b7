import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { creditProfiles } from '../../db/schema.ts';

/** The verified identity's columns of credit_profiles (verified_identity_enc, identity_verified_at). */
export class IdentityRepository {
  constructor(private readonly db: Db) {}

  /** The person's verified identity (encrypted) and when it was verified; undefined without a profile row. */
  async findVerified(userId: number): Promise<{ enc: string | null; at: Date | null } | undefined> {
    const [row] = await this.db
      .select({ enc: creditProfiles.verifiedIdentityEnc, at: creditProfiles.identityVerifiedAt })
      .from(creditProfiles)
      .where(eq(creditProfiles.userId, userId))
      .limit(1);
    return row;
  }

  /** Sets the verified identity (encrypted) unless the person already has one. */
  async bindIfUnset(userId: number, enc: string, now: Date): Promise<void> {
    await this.db
      .update(creditProfiles)
      .set({ verifiedIdentityEnc: enc, identityVerifiedAt: now })
      .where(and(eq(creditProfiles.userId, userId), isNull(creditProfiles.verifiedIdentityEnc)));
  }
}
