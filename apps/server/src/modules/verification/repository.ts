import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { creditProfiles, faceChecks, uploadedFiles } from '../../db/schema.ts';

type NewFaceCheck = typeof faceChecks.$inferInsert;

/** Face checks (face_checks), the face status of credit_profiles and what the uploads recorded. */
export class VerificationRepository {
  constructor(private readonly db: Db) {}

  /** Runs `fn` in one transaction; `repo` works on it, `tx` is the handle for other modules' repositories. */
  transaction<T>(fn: (repo: VerificationRepository, tx: Db) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) =>
      fn(new VerificationRepository(tx as unknown as Db), tx as unknown as Db),
    );
  }

  /** What the store recorded of an upload: its owner, folder and visibility. */
  async findUpload(
    key: string,
  ): Promise<{ ownerUserId: number | null; folder: string; isPrivate: boolean } | undefined> {
    const [row] = await this.db
      .select({
        ownerUserId: uploadedFiles.ownerUserId,
        folder: uploadedFiles.folder,
        isPrivate: uploadedFiles.isPrivate,
      })
      .from(uploadedFiles)
      .where(eq(uploadedFiles.key, key))
      .limit(1);
    return row;
  }

  /** The person's face status (credit_profiles.audit_status); undefined without a profile row. */
  async findFaceStatus(userId: number): Promise<number | undefined> {
    const [profile] = await this.db
      .select({ auditStatus: creditProfiles.auditStatus })
      .from(creditProfiles)
      .where(eq(creditProfiles.userId, userId))
      .limit(1);
    return profile?.auditStatus;
  }

  async insertFaceCheck(values: NewFaceCheck): Promise<void> {
    await this.db.insert(faceChecks).values(values);
  }

  /**
   * Sets the face status and its time only (the rest of the row belongs to the credit information);
   * a missing row is created with `emptyEnc` as its record.
   */
  async setFaceStatus(userId: number, status: number, emptyEnc: string, now: Date): Promise<void> {
    await this.db
      .insert(creditProfiles)
      .values({ userId, dataEnc: emptyEnc, auditStatus: status, updatedAt: now })
      .onConflictDoUpdate({ target: creditProfiles.userId, set: { auditStatus: status, updatedAt: now } });
  }
}
