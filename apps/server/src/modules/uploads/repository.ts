import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { uploadedFiles } from '../../db/schema.ts';

export interface UploadedFileRow {
  key: string;
  folder: string;
  isPrivate: boolean;
  ownerUserId: number | null;
  ownerStaffId: number | null;
  contentType: string;
  sizeBytes: number;
  sha256: string;
}

/** The `uploaded_files` rows of the local store (the API playing OSS, providers/storage/local.ts). */
export class UploadedFilesRepository {
  constructor(private readonly db: Db) {}

  async exists(key: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: uploadedFiles.id })
      .from(uploadedFiles)
      .where(eq(uploadedFiles.key, key))
      .limit(1);
    return Boolean(row);
  }

  /** Records a stored object; false when its key is already recorded (objects are never overwritten). */
  async insert(row: UploadedFileRow): Promise<boolean> {
    const inserted = await this.db
      .insert(uploadedFiles)
      .values(row)
      .onConflictDoNothing()
      .returning({ id: uploadedFiles.id });
    return inserted.length > 0;
  }

  async contentTypeOf(key: string): Promise<string | null> {
    const [row] = await this.db
      .select({ contentType: uploadedFiles.contentType })
      .from(uploadedFiles)
      .where(eq(uploadedFiles.key, key))
      .limit(1);
    return row?.contentType ?? null;
  }
}
