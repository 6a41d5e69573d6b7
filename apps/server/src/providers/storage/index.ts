import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Env } from '../../config/env.ts';
import { blindIndex, type KeyRing } from '../../lib/crypto.ts';
import { AliyunOssStorageProvider } from './aliyun-oss.ts';
import type { UploadedFiles } from './local.ts';
import { LocalStorageProvider } from './local.ts';
import { type ParsedKey, parseUploadKey } from './policy.ts';
import type { StorageProvider, StoredObject } from './types.ts';

export { AliyunOssStorageProvider } from './aliyun-oss.ts';
export { LocalStorageProvider } from './local.ts';
export { type ParsedKey, parseUploadKey } from './policy.ts';
export type { PolicyRequest, StorageProvider, StoredObject, UploadPolicy } from './types.ts';

/** Path of the local store's routes: `POST` uploads, `GET /<key>` reads. */
export const LOCAL_STORAGE_PATH = '/api/storage';
/** Access key id the local store puts in its policies. */
export const LOCAL_ACCESS_KEY_ID = 'local';

/** The store chosen by STORAGE_PROVIDER: `local` (default, the API is the host) or `aliyun-oss`. */
export function createStorageProvider(
  config: Env,
  deps: { files: UploadedFiles; ring: KeyRing },
): StorageProvider {
  if (config.STORAGE_PROVIDER === 'aliyun-oss') {
    return new AliyunOssStorageProvider({
      accessKeyId: config.OSS_ACCESS_KEY_ID!,
      accessKeySecret: config.OSS_ACCESS_KEY_SECRET!,
      bucket: config.OSS_BUCKET!,
      endpoint: config.OSS_ENDPOINT!,
      ...(config.OSS_PUBLIC_HOST ? { publicHost: config.OSS_PUBLIC_HOST } : {}),
    });
  }
  const memory = config.DATA_DIR === ':memory:';
  return new LocalStorageProvider({
    files: deps.files,
    root: memory ? mkdtempSync(join(tmpdir(), 'lm-uploads-')) : resolve(config.DATA_DIR, 'uploads'),
    temporary: memory,
    host: `${config.PUBLIC_BASE_URL ?? ''}${LOCAL_STORAGE_PATH}`,
    accessKeyId: LOCAL_ACCESS_KEY_ID,
    // Derived from the blind-index key (never rotated), so no extra secret to configure.
    accessKeySecret: blindIndex(deps.ring, 'local-storage-policy', 'v1'),
  });
}

/** Origins the browser must reach for uploads (CSP connect-src / img-src); none for the local store. */
export function storageOrigins(config: Env): string[] {
  if (config.STORAGE_PROVIDER !== 'aliyun-oss' || !config.OSS_BUCKET || !config.OSS_ENDPOINT) return [];
  const origins = new Set([`https://${config.OSS_BUCKET}.${config.OSS_ENDPOINT}`]);
  if (config.OSS_PUBLIC_HOST) origins.add(new URL(config.OSS_PUBLIC_HOST).origin);
  return [...origins];
}

export interface OwnUpload extends StoredObject {
  key: string;
  parsed: ParsedKey;
}

/**
 * The bytes behind an object URL the H5 sent, when the person uploaded it: the URL must be one
 * this store issued, its key of our layout, owned by `userId` and (when given) in one of `folders`.
 * Null otherwise — a foreign URL, someone else's file, or nothing there.
 */
export async function readUserUpload(
  storage: StorageProvider,
  url: string,
  userId: number,
  folders?: readonly string[],
): Promise<OwnUpload | null> {
  const key = storage.keyFromUrl(url);
  const parsed = key ? parseUploadKey(key) : null;
  if (!key || !parsed || parsed.name === '') return null;
  if (parsed.owner.kind !== 'user' || parsed.owner.id !== userId) return null;
  if (folders && !folders.includes(parsed.folder)) return null;
  const object = await storage.getObject(key);
  return object ? { ...object, key, parsed } : null;
}
