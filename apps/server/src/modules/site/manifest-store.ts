import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Env } from '../../config/env.ts';
import { encodeKey } from '../../providers/storage/aliyun-oss.ts';
import { LocalStorageProvider } from '../../providers/storage/local.ts';
import { ossSign, ossStringToSign } from '../../providers/storage/policy.ts';
import type { StorageProvider } from '../../providers/storage/types.ts';

/** Key of the app-download JSON in the storage's public area. */
export const MANIFEST_KEY = 'public/app/download.json';
export const MANIFEST_CONTENT_TYPE = 'application/json; charset=utf-8';
const PUT_TIMEOUT_MS = 10_000;

/**
 * Where the app-download JSON lives. The storage providers of issue 5 take browser uploads only, so
 * this writes the one server-made public file itself: under the local store's root (served by the
 * site module at `/api/storage/public/app/download.json`), or to the OSS bucket with a signed PUT
 * (public-read, no-cache).
 */
export interface ManifestStore {
  readonly kind: 'local' | 'aliyun-oss';
  /** Where the browser fetches it (`?t=<timestamp>` appended by the H5). */
  readonly url: string;
  write(json: string): Promise<void>;
  /** The local file's text (null when not written yet); OSS files are read from the bucket. */
  read(): Promise<string | null>;
}

export class LocalManifestStore implements ManifestStore {
  readonly kind = 'local' as const;
  readonly url: string;
  private readonly path: string;

  constructor(store: LocalStorageProvider) {
    this.url = `${store.host}/${MANIFEST_KEY}`;
    this.path = resolve(store.root, MANIFEST_KEY);
  }

  async write(json: string): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    // Written aside, then moved: a reader never sees half a file.
    const tmp = `${this.path}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(tmp, json, { mode: 0o600 });
    await rename(tmp, this.path);
  }

  async read(): Promise<string | null> {
    try {
      return await readFile(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }
}

export interface OssManifestOptions {
  accessKeyId: string;
  accessKeySecret: string;
  bucket: string;
  endpoint: string;
  /** Public host of the bucket (the storage's `host`). */
  publicHost: string;
  fetch?: typeof fetch;
}

/** Signed PUT (OSS header signature v1); written from the OSS documentation, not run against OSS. */
export class OssManifestStore implements ManifestStore {
  readonly kind = 'aliyun-oss' as const;
  readonly url: string;
  private readonly fetch: typeof fetch;

  constructor(private readonly o: OssManifestOptions) {
    this.url = `${o.publicHost.replace(/\/+$/, '')}/${MANIFEST_KEY}`;
    this.fetch = o.fetch ?? globalThis.fetch;
  }

  /** The PUT request for `json` at `now` (exposed for tests). */
  request(json: string, now = new Date()): { url: string; init: RequestInit } {
    const date = now.toUTCString();
    const ossHeaders = { 'x-oss-object-acl': 'public-read' };
    const signature = ossSign(
      this.o.accessKeySecret,
      ossStringToSign({
        verb: 'PUT',
        contentType: MANIFEST_CONTENT_TYPE,
        date,
        ossHeaders,
        resource: `/${this.o.bucket}/${MANIFEST_KEY}`,
      }),
    );
    return {
      url: `https://${this.o.bucket}.${this.o.endpoint}/${encodeKey(MANIFEST_KEY)}`,
      init: {
        method: 'PUT',
        headers: {
          Date: date,
          'Content-Type': MANIFEST_CONTENT_TYPE,
          'Cache-Control': 'no-cache',
          Authorization: `OSS ${this.o.accessKeyId}:${signature}`,
          ...ossHeaders,
        },
        body: json,
      },
    };
  }

  async write(json: string): Promise<void> {
    const { url, init } = this.request(json);
    const res = await this.fetch(url, { ...init, signal: AbortSignal.timeout(PUT_TIMEOUT_MS) });
    if (!res.ok) throw new Error(`OSS answered ${res.status} to the manifest PUT`);
  }

  async read(): Promise<string | null> {
    return null;
  }
}

/** The manifest store of the configured storage. */
export function createManifestStore(config: Env, storage: StorageProvider): ManifestStore {
  if (storage instanceof LocalStorageProvider) return new LocalManifestStore(storage);
  const host = (storage as { host?: string }).host ?? `https://${config.OSS_BUCKET}.${config.OSS_ENDPOINT}`;
  return new OssManifestStore({
    accessKeyId: config.OSS_ACCESS_KEY_ID!,
    accessKeySecret: config.OSS_ACCESS_KEY_SECRET!,
    bucket: config.OSS_BUCKET!,
    endpoint: config.OSS_ENDPOINT!,
    publicHost: host,
  });
}
