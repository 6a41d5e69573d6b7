import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import {
  type AcceptedForm,
  checkPostForm,
  isSafeKey,
  parseUploadKey,
  SNIFF_BYTES,
  signedPolicy,
  sniffImageType,
  type UploadOwner,
} from './policy.ts';
import type { PolicyRequest, StorageProvider, StoredObject, UploadPolicy } from './types.ts';

/** Why the local store refused an upload while it streamed. */
export type SaveRefusal = 'too-large' | 'empty' | 'type-mismatch' | 'exists';

export class UploadRefusedError extends Error {
  constructor(readonly reason: SaveRefusal) {
    super(reason);
    this.name = 'UploadRefusedError';
  }
}

/** One stored object's row in `uploaded_files`. */
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

/** Where the local store records its objects (modules/uploads UploadedFilesRepository). */
export interface UploadedFiles {
  exists(key: string): Promise<boolean>;
  /** False when the key is already recorded (objects are never overwritten). */
  insert(row: UploadedFileRow): Promise<boolean>;
  contentTypeOf(key: string): Promise<string | null>;
}

export interface LocalStoreOptions {
  files: UploadedFiles;
  /** Directory of the objects (DATA_DIR/uploads, or a temporary directory). */
  root: string;
  /** Where the browser posts: `${PUBLIC_BASE_URL}/api/storage`, or `/api/storage`. */
  host: string;
  accessKeyId: string;
  accessKeySecret: string;
  /** Remove `root` on close (the temporary store used with DATA_DIR=':memory:'). */
  temporary?: boolean;
}

export interface SavedObject {
  key: string;
  contentType: string;
  sizeBytes: number;
  sha256: string;
}

/**
 * The default store: the API itself plays OSS. It signs the same policies, checks a posted form as
 * OSS would (`checkForm`), streams the file to disk under `root` (size and magic bytes checked on
 * the way, nothing buffered beyond the first bytes) and records it in `uploaded_files`.
 */
export class LocalStorageProvider implements StorageProvider {
  readonly name = 'local' as const;
  readonly root: string;

  constructor(private readonly o: LocalStoreOptions) {
    this.root = resolve(o.root);
  }

  get host(): string {
    return this.o.host;
  }

  createPolicy(req: PolicyRequest): UploadPolicy {
    return signedPolicy(req, {
      accessKeyId: this.o.accessKeyId,
      accessKeySecret: this.o.accessKeySecret,
      host: this.o.host,
    });
  }

  /** Signature, expiry and conditions of a posted form (field names lower-case). */
  checkForm(fields: ReadonlyMap<string, string>, now = new Date()) {
    return checkPostForm(fields, this.o, now);
  }

  exists(key: string): Promise<boolean> {
    return this.o.files.exists(key);
  }

  /**
   * Streams `file` to disk as `form.key`. Refuses (UploadRefusedError) a file over the policy's
   * maximum as soon as it passes it, an empty file, bytes that are not the declared image type, and
   * a key that already exists (objects are never overwritten). Records the row, then moves the file
   * into place.
   */
  async save(form: AcceptedForm, owner: UploadOwner, file: Readable): Promise<SavedObject> {
    const finalPath = this.pathOf(form.key);
    if (!finalPath) throw new Error('unsafe key (checkForm refuses it first)');
    const incoming = resolve(this.root, '.incoming');
    await mkdir(incoming, { recursive: true, mode: 0o700 });
    const tmp = resolve(incoming, randomUUID());
    const out = createWriteStream(tmp, { flags: 'wx', mode: 0o600 });
    // Opened before anything can fail, so a refusal never races the open and leaves a file behind.
    await once(out, 'open');
    const hash = createHash('sha256');
    let size = 0;
    let head = Buffer.alloc(0);
    let sniffed = false;
    const checkHead = () => {
      sniffed = true;
      if (sniffImageType(head) !== form.contentType) throw new UploadRefusedError('type-mismatch');
    };
    try {
      for await (const chunk of file as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > form.maxBytes) throw new UploadRefusedError('too-large');
        if (!sniffed) {
          head = Buffer.concat([head, chunk]);
          if (head.length >= SNIFF_BYTES) checkHead();
        }
        hash.update(chunk);
        if (!out.write(chunk)) await once(out, 'drain');
      }
      if (size < Math.max(form.minBytes, 1)) throw new UploadRefusedError('empty');
      if (!sniffed) checkHead();
      out.end();
      await finished(out);
    } catch (err) {
      file.destroy();
      out.destroy();
      await finished(out).catch(() => {});
      await rm(tmp, { force: true });
      throw err;
    }

    const parsed = parseUploadKey(form.key)!;
    const sha256 = hash.digest('hex');
    let inserted: boolean;
    try {
      inserted = await this.o.files.insert({
        key: form.key,
        folder: parsed.folder,
        isPrivate: parsed.visibility === 'private',
        ownerUserId: owner.kind === 'user' ? owner.id : null,
        ownerStaffId: owner.kind === 'staff' ? owner.id : null,
        contentType: form.contentType,
        sizeBytes: size,
        sha256,
      });
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    if (!inserted) {
      await rm(tmp, { force: true });
      throw new UploadRefusedError('exists');
    }
    await mkdir(dirname(finalPath), { recursive: true, mode: 0o700 });
    await rename(tmp, finalPath);
    return { key: form.key, contentType: form.contentType, sizeBytes: size, sha256 };
  }

  async getObject(key: string): Promise<StoredObject | null> {
    const path = this.pathOf(key);
    if (!path) return null;
    const contentType = await this.o.files.contentTypeOf(key);
    if (contentType === null) return null;
    try {
      return { body: await readFile(path), contentType };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  keyFromUrl(url: string): string | null {
    return keyAfterHost(url, this.o.host, { acceptPath: true });
  }

  async close(): Promise<void> {
    if (this.o.temporary) await rm(this.root, { recursive: true, force: true });
  }

  /** Absolute path of a key, or null when the key would leave `root` or is not of our layout. */
  private pathOf(key: string): string | null {
    if (!parseUploadKey(key) || !isSafeKey(key)) return null;
    const path = resolve(this.root, key);
    return path.startsWith(this.root + sep) ? path : null;
  }
}

/**
 * The key of `${host}/${key}` (host absolute or a path like `/api/storage`), percent-decoded;
 * query and fragment ignored. Null when the URL is not below `host`. With `acceptPath`, a bare path
 * (`/api/storage/…`) counts as below an absolute host too (the local store is the site itself).
 */
export function keyAfterHost(url: string, host: string, opts: { acceptPath?: boolean } = {}): string | null {
  const isPath = url.startsWith('/') && !url.startsWith('//');
  if (!isPath && !/^https?:\/\//i.test(url)) return null;
  if (isPath && !opts.acceptPath && /^https?:/i.test(host)) return null;
  let target: URL;
  let root: URL;
  try {
    root = new URL(host, 'http://relative.invalid');
    // A path (`/api/storage/…`) is read against the host's origin; an absolute URL must match it.
    target = new URL(url, root);
  } catch {
    return null;
  }
  if (target.origin !== root.origin) return null;
  const prefix = `${root.pathname.replace(/\/+$/, '')}/`;
  if (!target.pathname.startsWith(prefix)) return null;
  let key: string;
  try {
    key = decodeURIComponent(target.pathname.slice(prefix.length));
  } catch {
    return null;
  }
  return key || null;
}
