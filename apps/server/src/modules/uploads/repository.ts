import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { uploadedFiles } from '../../db/schema.ts';
import type { UploadedFileRow, UploadedFiles } from '../../providers/storage/local.ts';

/** The `uploaded_files` rows of the local store (the API playing OSS, providers/storage/local.ts). */
export class UploadedFilesRepository implements UploadedFiles {
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
